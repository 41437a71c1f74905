import Foundation

/// What the server and a `scanextract worker` say to each other over the worker's stdin and
/// stdout. A request is one JSON line, followed by exactly `length` bytes when it carries its
/// input inline (ink). A reply is one JSON line (``WorkerReply``) followed, when it succeeded,
/// by exactly `length` bytes: the document as `scanextract` (or `scanextract ink`) prints it.
public struct WorkerRequest: Codable, Sendable {
    public enum Kind: String, Codable, Sendable {
        /// A job from the store: `input` names its upload, `configuration` is a ScanConfiguration.
        case extract
        /// An Ink document, inline; `configuration` is the `InkOptions` (JSON). Not a stored job.
        case ink
    }

    /// What to do; absent means `extract`.
    public var kind: Kind?
    /// The job's id, or the ink request's: the reply names it.
    public var job: String
    /// The input file (the job's upload); empty when the input is inline.
    public var input: String
    /// The name the client gave the input; the document's `source`.
    public var name: String
    /// The ScanConfiguration or the InkOptions, as JSON.
    public var configuration: String
    /// Bytes of inline input that follow the line.
    public var length: Int?

    public init(job: String, input: String, name: String, configuration: String) {
        self.job = job
        self.input = input
        self.name = name
        self.configuration = configuration
    }

    /// An ink request: the Ink document (`length` bytes) follows the line.
    public static func ink(id: String, options: String, length: Int) -> WorkerRequest {
        var request = WorkerRequest(job: id, input: "", name: "ink", configuration: options)
        request.kind = .ink
        request.length = length
        return request
    }
}

public struct WorkerReply: Codable, Sendable {
    public var job: String
    public var ok: Bool
    /// Bytes of the document that follow the line (when ok).
    public var length: Int?
    /// The ScanError code and reason (when not ok).
    public var code: String?
    public var message: String?
    /// The error would come back on every try (`ScanError.lasting`): no new worker, no retry.
    public var lasting: Bool?

    public init(
        job: String, ok: Bool, length: Int? = nil, code: String? = nil, message: String? = nil, lasting: Bool? = nil
    ) {
        self.job = job
        self.ok = ok
        self.length = length
        self.code = code
        self.message = message
        self.lasting = lasting
    }
}

/// Reads lines and counted bodies from a file descriptor, blocking. Used by both ends.
public final class FrameReader: @unchecked Sendable {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private let writerGone: (@Sendable () -> Bool)?

    /// `writerGone`, asked while a read waits for more, ends the stream when it says the writer is gone: once what is
    /// in the pipe is read, no more is coming, though a process the writer left behind (a crash reporter) may still
    /// hold the pipe's other end open.
    public init(fd: Int32, writerGone: (@Sendable () -> Bool)? = nil) {
        self.fd = fd
        self.writerGone = writerGone
    }

    private func fill() -> Bool {
        if start > 0 && start == buffer.count { buffer.removeAll(keepingCapacity: true); start = 0 }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            if let writerGone {
                // Waits in short steps, asking between them whether the writer is gone.
                var wait = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = Glibc.poll(&wait, 1, 200)
                if ready < 0 && errno == EINTR { continue }
                if ready == 0 {
                    if writerGone() { return false }
                    continue
                }
            }
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n > 0 { buffer.append(contentsOf: chunk[0..<n]); return true }
            if n < 0 && errno == EINTR { continue }
            return false
        }
    }

    /// The next line without its newline; nil at the end of the stream.
    public func readLine() -> [UInt8]? {
        while true {
            if let nl = buffer[start...].firstIndex(of: 0x0A) {
                let line = Array(buffer[start..<nl])
                start = nl + 1
                return line
            }
            guard fill() else { return nil }
        }
    }

    /// Exactly `count` bytes; nil when the stream ends first.
    public func read(count: Int) -> Data? {
        while buffer.count - start < count {
            guard fill() else { return nil }
        }
        let data = Data(buffer[start..<(start + count)])
        start += count
        return data
    }
}

/// Writes all of `data` to `fd`; false when the other end is gone.
@discardableResult
public func writeAll(_ fd: Int32, _ data: Data) -> Bool {
    data.withUnsafeBytes { raw -> Bool in
        var offset = 0
        while offset < raw.count {
            let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }
}
