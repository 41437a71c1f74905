import Foundation

/// What the operating system says about a worker process, and what the server asks of it:
/// its resident memory (read by the server, which kills a worker past its limit) and its
/// scheduling priority (lowered by the worker itself, so the server's event loops win a
/// core over recognition and stay quick to answer while every worker is busy).
public enum WorkerLimits {
    /// Resident memory of process `pid` in bytes, from `/proc/PID/statm`; nil when the process
    /// is gone or the file cannot be read.
    public static func residentBytes(of pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count >= 2, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Whether process `pid` has ended: reaped (no such process) or a zombie, by `/proc/PID/stat`. An entry that
    /// cannot be read for another reason (no file descriptor left) says nothing, and is taken as running.
    public static func hasEnded(_ pid: Int32) -> Bool {
        if kill(pid, 0) == -1 && errno == ESRCH { return true }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")")
        else { return false }
        // `pid (command) state ...`: the state follows the command's closing parenthesis.
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first == "Z"
    }

    /// Lowers this process's priority to `niceness` (0 to 19) below that of the process that
    /// started it (the server's main thread), for every thread it has now; threads started
    /// afterwards inherit it from the thread that starts them. On Linux a nice value belongs
    /// to a thread, and Dispatch gives its threads their own (user-initiated ones run at -2),
    /// so a worker spawned from one of them starts there: the parent's main thread is the
    /// stable reference. Returns the threads changed.
    @discardableResult
    public static func lowerPriority(by niceness: Int32) -> Int {
        guard niceness > 0 else { return 0 }
        let target = min(19, (Self.niceness(ofThread: getppid()) ?? 0) + niceness)
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        var changed = 0
        for tid in tasks.compactMap({ Int32($0) }) {
            guard let current = Self.niceness(ofThread: tid), current < target else { continue }
            if setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(tid), target) == 0 { changed += 1 }
        }
        return changed
    }

    /// The nice value of thread `tid` (a process id names its main thread); nil when gone.
    public static func niceness(ofThread tid: Int32) -> Int32? {
        errno = 0
        let value = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(tid))
        return value == -1 && errno != 0 ? nil : value
    }
}
