import ArgumentParser
import Foundation
import ScanExport
import ScanInk
import ScanKit
import ScanModel
import ScanService

/// `scanextract worker`: what `serve` runs its engines in. Reads one request a line on stdin
/// (an extraction job, or an ink document) and answers each on stdout (see `WorkerProtocol`);
/// exits when stdin closes. Not for people.
struct WorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker", abstract: "Run extractions for `scanextract serve` (over stdin and stdout).",
        shouldDisplay: false)

    @Option(help: "Lower this worker's scheduling priority by this much (0 to 19) before any engine starts.")
    var nice: Int32 = 0

    func validate() throws {
        guard (0...19).contains(nice) else { throw ValidationError("--nice must be from 0 to 19") }
    }

    func run() throws {
        // First, while the process has few threads: the engines' threads inherit it.
        WorkerLimits.lowerPriority(by: nice)
        // Replies go to a private copy of stdout; anything a library prints goes to stderr.
        let replies = dup(STDOUT_FILENO)
        dup2(STDERR_FILENO, STDOUT_FILENO)
        let requests = FrameReader(fd: STDIN_FILENO)
        var processor: DocumentProcessor?
        // Its recognizer is made on the first ink request and kept for the next ones.
        let inkReader = InkReader()
        let decoder = JSONDecoder()
        while let line = requests.readLine() {
            guard let request = try? decoder.decode(WorkerRequest.self, from: Data(line)) else {
                printError("worker: a request that is not JSON")
                throw ExitCode(ExitStatus.usage)
            }
            var inline = Data()
            if let length = request.length {
                guard length >= 0, let bytes = requests.read(count: length) else {
                    printError("worker: a request whose input was cut short")
                    throw ExitCode(ExitStatus.usage)
                }
                inline = bytes
            }
            holdForTests()
            var reply: WorkerReply
            var body = Data()
            do {
                switch request.kind ?? .extract {
                case .extract:
                    let configuration = try decoder.decode(
                        ScanConfiguration.self, from: Data(request.configuration.utf8))
                    // One engine per worker, kept while the configuration stays the same.
                    if processor?.configuration != configuration {
                        processor = try DocumentProcessor(configuration: configuration)
                    }
                    let data = try Data(contentsOf: URL(fileURLWithPath: request.input))
                    let document = try processor!.process(data: data, name: request.name)
                    body = try DocumentWriter.encode(document, as: .json)
                case .ink:
                    let options = try decoder.decode(InkOptions.self, from: Data(request.configuration.utf8))
                    body = try inkReader.answer(inline, options: options)
                }
                reply = WorkerReply(job: request.job, ok: true, length: body.count)
            } catch let error as ScanError {
                reply = WorkerReply(job: request.job, ok: false, code: error.code.rawValue, message: error.reason,
                                    lasting: error.lasting ? true : nil)
            } catch {
                reply = WorkerReply(job: request.job, ok: false, code: ScanError.Code.unreadable.rawValue,
                                    message: "the input could not be read")
            }
            var out = try JSONEncoder().encode(reply)
            out.append(0x0A)
            out.append(body)
            guard writeAll(replies, out) else { return }
        }
    }

    /// Tests of `serve` kill or time out a worker in the middle of a job: while the file
    /// named by SCANEXTRACT_WORKER_HOLD exists, the worker waits before each job.
    private func holdForTests() {
        guard let path = ProcessInfo.processInfo.environment["SCANEXTRACT_WORKER_HOLD"] else { return }
        while FileManager.default.fileExists(atPath: path) { usleep(20_000) }
    }
}
