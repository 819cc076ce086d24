import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XCTest

/// A real CalDAV server for a test, on 127.0.0.1 at a free port, from the virtual environment
/// `.ci/run` makes (`.build/dav-venv`: Radicale 3.9.0, Xandikos 0.4.10 and the `caldav` library):
/// Radicale with htpasswd authentication (user `alice`, password `secret`) and a VTODO calendar
/// `/alice/tasks/` named "Tasks"; or Xandikos, which takes any credentials and has a mixed
/// calendar `/user/calendars/calendar/`. Stopped when released; a test without the environment
/// is skipped, saying so.
public final class DAVServer {
    public enum Kind: String, Sendable {
        /// SabreDAV 1.8 (Debian's `php-sabre-dav`, under `php -S`): Basic authentication (alice,
        /// secret), a calendar "Tasks" for tasks at `/calendars/alice/tasks/`, its data in SQLite;
        /// no sync-collection report (it answers 403), so a client lists etags.
        case radicale, xandikos, sabre
    }

    /// The calendar for tasks the server starts with.
    public var taskCalendar: URL {
        switch kind {
        case .radicale: return url.appendingPathComponent("alice/tasks/")
        case .xandikos: return url.appendingPathComponent("user/calendars/calendar/")
        case .sabre: return url.appendingPathComponent("calendars/alice/tasks/")
        }
    }

    /// The server's own files (Radicale's collections, SabreDAV's `db.sqlite`).
    public var dataFolder: URL { folder }

    /// SabreDAV's library as Debian installs it, and the PHP that runs it.
    static let sabreLibrary = "/usr/share/php/Sabre/autoload.php", php = "/usr/bin/php"

    /// `http://127.0.0.1:PORT/`.
    public let url: URL
    public let kind: Kind
    private let process: Process
    private let folder: URL

    /// The virtual environment's folder, beside the checkout's build folder.
    public static var environment: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/dav-venv")
    }

    /// The environment's Python, which also runs the `caldav` library as a phone would; skips the
    /// test when it is not there.
    public static func python() throws -> String {
        let python = environment.appendingPathComponent("bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw XCTSkip("Radicale, Xandikos and caldav are not installed (.ci/run makes \(environment.path))")
        }
        return python
    }

    public init(_ kind: Kind, in directory: URL) throws {
        let python: String
        if kind == .sabre {
            guard FileManager.default.isExecutableFile(atPath: Self.php), FileManager.default.fileExists(atPath: Self.sabreLibrary) else {
                throw XCTSkip("SabreDAV 1.8 is not installed (.ci/run installs php-cli, php-sabre-dav and php-sqlite3)")
            }
            python = Self.php
        } else {
            python = try Self.python()
        }
        self.kind = kind
        folder = directory.appendingPathComponent("dav-\(kind.rawValue)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let port = try Self.freePort()
        url = URL(string: "http://127.0.0.1:\(port)/")!
        process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        switch kind {
        case .radicale:
            try "alice:secret\n".write(to: folder.appendingPathComponent("users"), atomically: true, encoding: .utf8)
            let config = """
                [server]
                hosts = 127.0.0.1:\(port)
                [auth]
                type = htpasswd
                htpasswd_filename = \(folder.path)/users
                htpasswd_encryption = plain
                delay = 0
                [storage]
                filesystem_folder = \(folder.path)/collections
                predefined_collections = {"tasks": {"tag": "VCALENDAR", "C:supported-calendar-component-set": "VTODO", "D:displayname": "Tasks"}}
                [logging]
                level = warning
                """
            try config.write(to: folder.appendingPathComponent("config"), atomically: true, encoding: .utf8)
            process.arguments = ["-m", "radicale", "--config", folder.appendingPathComponent("config").path]
        case .xandikos:
            process.arguments = ["-m", "xandikos", "serve", "-d", folder.appendingPathComponent("data").path, "--defaults",
                                 "-l", "127.0.0.1", "-p", String(port)]
        case .sabre:
            try Self.sabreServer.write(to: folder.appendingPathComponent("server.php"), atomically: true, encoding: .utf8)
            process.arguments = ["-S", "127.0.0.1:\(port)", folder.appendingPathComponent("server.php").path]
            process.currentDirectoryURL = folder
        }
        let log = FileManager.default.createFile(atPath: folder.appendingPathComponent("log").path, contents: nil)
            ? FileHandle(forWritingAtPath: folder.appendingPathComponent("log").path) : nil
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // It starts in about two seconds; a busy machine may take longer.
        let deadline = Date().addingTimeInterval(30)
        while !Self.accepts(port: port) {
            guard process.isRunning, Date() < deadline else {
                stop()
                let output = (try? String(contentsOf: folder.appendingPathComponent("log"), encoding: .utf8)) ?? ""
                throw NSError(domain: "DAVServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "\(kind) did not start: \(output)"])
            }
            usleep(50_000)
        }
    }

    deinit {
        stop()
    }

    /// SabreDAV 1.8's calendar server, as its own example builds it, with a user of Basic authentication.
    private static let sabreServer = """
        <?php
        date_default_timezone_set('UTC');
        require_once 'Sabre/autoload.php';
        $pdo = new PDO('sqlite:' . __DIR__ . '/db.sqlite');
        $pdo->setAttribute(PDO::ATTR_ERRMODE, PDO::ERRMODE_EXCEPTION);
        if (!$pdo->query("SELECT name FROM sqlite_master WHERE name='calendars'")->fetch()) {
            $pdo->exec(file_get_contents('/usr/share/doc/php-sabre-dav/examples/sql/sqlite.calendars.sql'));
            $pdo->exec(file_get_contents('/usr/share/doc/php-sabre-dav/examples/sql/sqlite.principals.sql'));
            $pdo->exec("INSERT INTO principals (uri,email,displayname) VALUES ('principals/alice','alice@example.org','Alice')");
            $pdo->exec("INSERT INTO principals (uri) VALUES ('principals/alice/calendar-proxy-read')");
            $pdo->exec("INSERT INTO principals (uri) VALUES ('principals/alice/calendar-proxy-write')");
            $pdo->exec("INSERT INTO calendars (principaluri,displayname,uri,ctag,components) VALUES ('principals/alice','Tasks','tasks',1,'VTODO')");
        }
        class TestAuth extends Sabre\\DAV\\Auth\\Backend\\AbstractBasic {
            protected function validateUserPass($username, $password) { return $username === 'alice' && $password === 'secret'; }
        }
        $principals = new Sabre\\DAVACL\\PrincipalBackend\\PDO($pdo);
        $calendars = new Sabre\\CalDAV\\Backend\\PDO($pdo);
        $server = new Sabre\\DAV\\Server(array(new Sabre\\CalDAV\\Principal\\Collection($principals),
                                                new Sabre\\CalDAV\\CalendarRootNode($principals, $calendars)));
        $server->setBaseUri('/');
        $server->addPlugin(new Sabre\\DAV\\Auth\\Plugin(new TestAuth(), 'SabreDAV'));
        $server->addPlugin(new Sabre\\DAVACL\\Plugin());
        $server->addPlugin(new Sabre\\CalDAV\\Plugin());
        $server->exec();
        """

    public func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    /// A port nobody listens on now (the kernel's choice for a socket bound to port 0).
    private static func freePort() throws -> Int {
        let socketHandle = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketHandle >= 0 else { throw POSIXError(.EMFILE) }
        defer { close(socketHandle) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketHandle, $0, length) == 0 && getsockname(socketHandle, $0, &length) == 0 }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func accepts(port: Int) -> Bool {
        let socketHandle = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketHandle >= 0 else { return false }
        defer { close(socketHandle) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socketHandle, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
