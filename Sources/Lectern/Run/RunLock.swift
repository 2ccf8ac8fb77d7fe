import Foundation

/// One `lectern run` at a time per library: an exclusive `flock` on `<library>.run-lock`, whose
/// text names the holder (pid and start time). The kernel drops the lock when its process dies,
/// however it dies, so a lock left by a killed run is simply taken by the next one.
/// Hand-started ingests only wait while a run holds it (`waitWhileHeld`), so two of them still
/// run side by side.
// Safe: owns one file descriptor, set in `init` and closed once (`release` or `deinit`); `flock` is the lock.
public final class RunLock: @unchecked Sendable {
    /// Who holds a lock, as its file says.
    public struct Holder: Sendable, Equatable, CustomStringConvertible {
        public var pid: Int32
        public var started: String
        public var description: String { "pid \(pid), started \(started)" }
    }

    /// Another run holds the lock (exit status 3).
    public struct Held: Error, CustomStringConvertible, Sendable {
        public var holder: Holder?
        public var description: String {
            "another run (\(holder?.description ?? "pid unknown")) holds the lock"
        }
    }

    private let descriptor: Int32
    public let path: String
    /// The lock's earlier holder, when the file named a process that is gone (a killed run).
    public let previous: Holder?

    /// `<library>.run-lock` beside the library's resolved path: a library reached through a
    /// symbolic link (or `./x/../lib.db`) has one lock, whatever its spelling.
    public static func path(library: String) -> String { ResolvedPath.of(library) + ".run-lock" }

    private init(descriptor: Int32, path: String, previous: Holder?) {
        self.descriptor = descriptor
        self.path = path
        self.previous = previous
    }

    /// Opens the lock file without following a symbolic link, creating it when there is none.
    /// One that is there already is used only when it is a lock file: a regular file of this
    /// user with no other name, empty or holding a holder's line. Anything else (a link planted
    /// towards `~/.bashrc`, a hard link, a file with other text) is refused and left untouched.
    static func openLockFile(_ path: String) throws -> Int32 {
        let created = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        if created >= 0 { return created }
        guard errno == EEXIST else { throw failure(path, errno) }
        let descriptor = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(path, errno) }
        var info = stat()
        let problem: String?
        if fstat(descriptor, &info) != 0 {
            problem = String(cString: strerror(errno))
        } else if info.st_mode & S_IFMT != S_IFREG {
            problem = "is not a regular file"
        } else if info.st_nlink != 1 {
            problem = "has other names (a hard link): it may be another file"
        } else if info.st_uid != geteuid() {
            problem = "belongs to another user"
        } else if info.st_size > 4096 || (info.st_size > 0 && holder(descriptor) == nil) {
            problem = "holds text that is not a run lock's"
        } else {
            problem = nil
        }
        if let problem {
            close(descriptor)
            throw LecternError(.unreadable, path, "\(problem); Lectern does not overwrite it: remove it and run again")
        }
        return descriptor
    }

    static func failure(_ path: String, _ code: Int32) -> LecternError {
        if code == ELOOP {
            return LecternError(.unreadable, path, "is a symbolic link; Lectern does not follow it: remove it and run again")
        }
        return LecternError(.unreadable, path, "cannot open the run lock: \(String(cString: strerror(code)))")
    }

    /// Takes the lock of `library`. Held by another process: throws `Held`, or with `wait`
    /// calls `waiting` once and tries again every 0.2 s until it is free or `cancellation` stops it.
    public static func acquire(library: String, wait: Bool = false, cancellation: Cancellation? = nil,
                               waiting: (Holder?) -> Void = { _ in }) throws -> RunLock {
        let path = path(library: library)
        let descriptor = try openLockFile(path)
        var told = false
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let holder = Self.holder(descriptor)
            guard wait else {
                close(descriptor)
                throw Held(holder: holder)
            }
            if !told {
                waiting(holder)
                told = true
            }
            if cancellation?.isCancelled == true {
                close(descriptor)
                throw LecternError(.interrupted, path, "stopped while waiting for the run lock")
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
        let previous = Self.holder(descriptor).flatMap { $0.pid != getpid() ? $0 : nil }
        let text = "\(getpid()) \(ISO8601DateFormatter().string(from: Date()))\n"
        let length = text.withCString { pwrite(descriptor, $0, strlen($0), 0) }
        // Only a holder's line was there (checked on opening): what is past ours is its rest.
        if length > 0 { _ = ftruncate(descriptor, off_t(length)) }
        return RunLock(descriptor: descriptor, path: path, previous: previous)
    }

    /// Waits while a run holds the lock of `library` (calling `waiting` once), then returns at
    /// once: a hand-started command does not hold it, so several of them run side by side.
    public static func waitWhileHeld(library: String, cancellation: Cancellation? = nil, waiting: (Holder?) -> Void) throws {
        let path = path(library: library)
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var told = false
        while flock(descriptor, LOCK_SH | LOCK_NB) != 0 {
            if !told {
                waiting(holder(descriptor))
                told = true
            }
            try cancellation?.check(path)
            Thread.sleep(forTimeInterval: 0.2)
        }
        flock(descriptor, LOCK_UN)
    }

    /// The holder an open lock file names, nil when it names none.
    static func holder(_ descriptor: Int32) -> Holder? {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = pread(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        let parts = String(decoding: buffer[..<count], as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard parts.count == 2, let pid = Int32(parts[0]), pid > 0 else { return nil }
        return Holder(pid: pid, started: String(parts[1]))
    }

    /// Gives the lock up (also done by the kernel when the process ends).
    /// Its text is emptied first: only a run that died leaves its name behind (`previous`).
    public func release() {
        _ = ftruncate(descriptor, 0)
        flock(descriptor, LOCK_UN)
    }

    deinit {
        close(descriptor)
    }
}
