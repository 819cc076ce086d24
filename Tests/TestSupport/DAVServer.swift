import Foundation
import ToDoCore
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        /// Cyrus IMAP 3.6 (Debian's `cyrus-imapd` and `cyrus-caldav`; Fastmail's engine), run by its
        /// `master` as the `cyrus` user, so only as root: alice's calendar home at
        /// `/dav/calendars/user/alice/`, its default calendar made on first use; a UID lives in one
        /// calendar of the account.
        case radicale, xandikos, sabre, cyrus
    }

    /// The calendar for tasks the server starts with.
    public var taskCalendar: WebAddress {
        switch kind {
        case .radicale: return url.appendingPathComponent("alice/tasks/")
        case .xandikos: return url.appendingPathComponent("user/calendars/calendar/")
        case .sabre: return url.appendingPathComponent("calendars/alice/tasks/")
        case .cyrus: return url.appendingPathComponent("dav/calendars/user/alice/Default/")
        }
    }

    /// The server's own files (Radicale's collections, SabreDAV's `db.sqlite`).
    public var dataFolder: URL { folder }

    /// SabreDAV's library as Debian installs it, and the PHP that runs it.
    static let sabreLibrary = "/usr/share/php/Sabre/autoload.php", php = "/usr/bin/php"

    /// `http://127.0.0.1:PORT/`.
    public let url: WebAddress
    public let kind: Kind
    private let process: Process
    private let folder: URL

    /// The virtual environment's folder, beside the checkout's build folder.
    public static var environment: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
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
        switch kind {
        case .sabre:
            guard FileManager.default.isExecutableFile(atPath: Self.php),
                FileManager.default.fileExists(atPath: Self.sabreLibrary)
            else {
                throw XCTSkip("SabreDAV 1.8 is not installed (.ci/run installs php-cli, php-sabre-dav and php-sqlite3)")
            }
            python = Self.php
        case .cyrus:
            guard FileManager.default.isExecutableFile(atPath: Self.cyrusMaster),
                FileManager.default.isExecutableFile(atPath: "/usr/sbin/saslpasswd2"),
                getpwnam("cyrus") != nil
            else {
                throw XCTSkip("Cyrus IMAP is not installed (.ci/run installs cyrus-imapd, cyrus-caldav and sasl2-bin)")
            }
            try XCTSkipUnless(geteuid() == 0, "Cyrus runs as its own user, which needs root to become")
            python = Self.cyrusMaster
        case .radicale, .xandikos:
            python = try Self.python()
        }
        self.kind = kind
        if kind == .cyrus {
            // Its own folder the cyrus user can reach: a test's folder is its owner's alone.
            var template = Array("/tmp/todo-cyrus-XXXXXX".utf8CString)
            guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
                throw POSIXError(.EACCES)
            }
            folder = URL(fileURLWithPath: String(cString: made))
            chmod(folder.path, 0o755)
        } else {
            folder = directory.appendingPathComponent("dav-\(kind.rawValue)")
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let port = try Self.freePort()
        url = WebAddress(string: "http://127.0.0.1:\(port)/")!
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
            process.arguments = [
                "-m", "xandikos", "serve", "-d", folder.appendingPathComponent("data").path, "--defaults",
                "-l", "127.0.0.1", "-p", String(port)
            ]
        case .sabre:
            try Self.sabreServer.write(
                to: folder.appendingPathComponent("server.php"), atomically: true, encoding: .utf8)
            process.arguments = ["-S", "127.0.0.1:\(port)", folder.appendingPathComponent("server.php").path]
            process.currentDirectoryURL = folder
        case .cyrus:
            imapPort = try Self.freePort()
            try prepareCyrus(httpPort: port, imapPort: imapPort)
            process.arguments = [
                "-C", folder.appendingPathComponent("imapd.conf").path, "-M",
                folder.appendingPathComponent("cyrus.conf").path,
                "-p", folder.appendingPathComponent("master.pid").path
            ]
        }
        let log =
            FileManager.default.createFile(atPath: folder.appendingPathComponent("log").path, contents: nil)
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
                throw NSError(
                    domain: "DAVServer", code: 1,
                    userInfo: [NSLocalizedDescriptionKey: "\(kind) did not start: \(output)"])
            }
            usleep(50_000)
        }
        if kind == .cyrus {
            // alice's mailbox, which her calendars live under, made by the administrator over IMAP.
            try Self.runChecked(
                "/usr/bin/python3",
                [
                    "-c",
                    """
                    import imaplib
                    imap = imaplib.IMAP4('127.0.0.1', \(imapPort))
                    imap.login('admin', 'secret')
                    status, answer = imap.create('user/alice')
                    assert status == 'OK', answer
                    """
                ])
        }
    }

    /// Cyrus's IMAP port, on which the administrator makes alice's mailbox.
    private var imapPort = 0
    static let cyrusMaster = "/usr/lib/cyrus/bin/master"

    /// Cyrus's configuration in its folder (its databases, spool and sockets there too), users
    /// alice and admin with the password secret, all owned by the cyrus user it runs as.
    private func prepareCyrus(httpPort: Int, imapPort: Int) throws {
        let root = folder.path
        for name in ["config", "spool", "sieve", "proc", "lock", "socket"] {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        try """
        configdirectory: \(root)/config
        proc_path: \(root)/proc
        mboxname_lockpath: \(root)/lock
        defaultpartition: default
        partition-default: \(root)/spool
        sievedir: \(root)/sieve
        admins: admin
        allowplaintext: yes
        sasl_pwcheck_method: auxprop
        sasl_auxprop_plugin: sasldb
        sasl_sasldb_path: \(root)/sasldb2
        sasl_mech_list: PLAIN LOGIN
        httpmodules: caldav
        httpallowcompress: no
        caldav_create_default: yes
        lmtpsocket: \(root)/socket/lmtp
        idlesocket: \(root)/socket/idle
        notifysocket: \(root)/socket/notify
        servername: localhost
        syslog_prefix: todo-tests-cyrus

        """.write(to: folder.appendingPathComponent("imapd.conf"), atomically: true, encoding: .utf8)
        try """
        START {
          recover cmd="ctl_cyrusdb -r -C \(root)/imapd.conf"
        }
        SERVICES {
          imap cmd="imapd -C \(root)/imapd.conf" listen="127.0.0.1:\(imapPort)" prefork=0
          http cmd="httpd -C \(root)/imapd.conf" listen="127.0.0.1:\(httpPort)" prefork=0
        }
        EVENTS {
        }

        """.write(to: folder.appendingPathComponent("cyrus.conf"), atomically: true, encoding: .utf8)
        for user in ["admin", "alice"] {
            try Self.runChecked(
                "/usr/sbin/saslpasswd2", ["-p", "-c", "-f", "\(root)/sasldb2", "-u", "localhost", user], input: "secret"
            )
        }
        try Self.runChecked("/bin/chown", ["-R", "cyrus:mail", root])
    }

    /// Runs a program to its end, failing when it fails.
    private static func runChecked(_ program: String, _ arguments: [String], input: String = "") throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let stdin = Pipe(), output = Pipe()
        process.standardInput = stdin
        process.standardOutput = output
        process.standardError = output
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let said = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NSError(
                domain: "DAVServer", code: 2,
                userInfo: [NSLocalizedDescriptionKey: "\(program) failed: \(String(decoding: said, as: UTF8.self))"])
        }
    }

    deinit {
        stop()
        if kind == .cyrus { try? FileManager.default.removeItem(at: folder) }
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
        // A server that does not stop when asked (Xandikos's aiohttp, waiting on a connection kept
        // alive) is killed after a few seconds: a test never waits on it forever.
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
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
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketHandle, $0, length) == 0 && getsockname(socketHandle, $0, &length) == 0
            }
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
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketHandle, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
