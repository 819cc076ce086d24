import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pseudo-terminal of a set size, to run `todo` as a user at a terminal does: standard input,
/// output and error are the terminal, and what it shows is read from the other side.
final class PseudoTerminal {
    private let controller: Int32
    private var device: Int32

    /// A terminal `columns` wide; 0 makes one that does not say its size.
    init(columns: Int, rows: Int = 24) throws {
        #if os(Linux)
        // Glibc's module leaves out posix_openpt and its friends, and the ioctl numbers (macros of
        // macros); this is what they do on Linux (x86-64 and ARM numbers: TIOCSPTLCK, TIOCGPTN).
        let (TIOCSPTLCK, TIOCGPTN) = (0x4004_5431, 0x8004_5430)
        controller = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0, number: UInt32 = 0
        guard controller >= 0, ioctl(controller, UInt(TIOCSPTLCK), &unlock) == 0,
            ioctl(controller, UInt(TIOCGPTN), &number) == 0
        else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        let name = "/dev/pts/\(number)"
        #else
        controller = posix_openpt(O_RDWR | O_NOCTTY)
        guard controller >= 0, grantpt(controller) == 0, unlockpt(controller) == 0, let path = ptsname(controller)
        else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        let name = String(cString: path)
        #endif
        device = open(name, O_RDWR | O_NOCTTY)
        guard device >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        guard ioctl(device, UInt(TIOCSWINSZ), &size) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    deinit {
        close(controller)
        if device >= 0 { close(device) }
    }

    /// Runs `executable` on the terminal, waits for it, and returns its exit status and what the
    /// terminal showed, with the terminal's CR LF line ends made LF.
    func run(
        _ executable: URL, _ arguments: [String], environment: [String: String], timeout: TimeInterval = 60
    ) throws -> (status: Int32, shown: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        let handle = FileHandle(fileDescriptor: device, closeOnDealloc: false)
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        // Only the child holds the terminal now: reading ends (EIO) once it exits.
        close(device)
        device = -1
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        var shown: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(controller, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            shown.append(contentsOf: chunk[..<count])
        }
        process.waitUntilExit()
        watchdog.cancel()
        let text = String(decoding: shown, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        return (process.terminationStatus, text)
    }
}

extension BinaryRunner {
    /// Runs `todo` on a pseudo-terminal `columns` wide (0: one that does not say its width).
    /// Skipped, saying why, on a system without pseudo-terminals (a container without /dev/pts).
    func runOnTerminal(_ arguments: [String], columns: Int) throws -> (status: Int32, shown: String) {
        let terminal: PseudoTerminal
        do {
            terminal = try PseudoTerminal(columns: columns)
        } catch let error as POSIXError where [.ENOENT, .ENXIO, .ENODEV].contains(error.code) {
            throw XCTSkip(
                "this system has no pseudo-terminals (\(error.code)): the terminal tests need /dev/ptmx and /dev/pts")
        }
        return try terminal.run(Self.executable, arguments, environment: environment)
    }
}
