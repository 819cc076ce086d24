import Foundation
import TestSupport
import ToDoCore
import XCTest

/// The built `todo` talking HTTP to a real server on 127.0.0.1: the geocoder and importing from a
/// URL, including a server that is too slow, one that fails and one that answers nonsense.
final class NetworkTests: BinaryTestCase {
    private var server: LocalHTTPServer!

    override func tearDown() {
        server = nil
        super.tearDown()
    }

    @discardableResult
    func run(_ arguments: String..., input: String? = nil) throws -> Outcome {
        try todo.run(arguments, input: input.map { Data($0.utf8) })
    }

    private func startServer(
        _ respond: @escaping @Sendable (LocalHTTPServer.Request) -> LocalHTTPServer.Response
    ) throws {
        server = try LocalHTTPServer(respond: respond)
        todo.environment["TODO_GEOCODER_URL"] = server.url("/search")
    }

    // MARK: Geocoding

    func test_geocoding_asksTheServerAndStoresTheCoordinate() throws {
        try startServer { request in
            guard request.path == "/search", request.query["q"] == "Pariser Platz 1, Berlin" else {
                return .init(status: 404, body: "[]")
            }
            return .init(
                body: #"[{"lat": "52.5162746", "lon": "13.3777041", "display_name": "Brandenburger Tor, Berlin"}]"#)
        }
        XCTAssertEqual(
            try run("add", "See the gate", "--location", "Gate", "--address", "Pariser Platz 1, Berlin"),
            Outcome(
                status: 0, stdout: "Added 1: See the gate (at Gate)\n",
                stderr: "Found 'Pariser Platz 1, Berlin' at 52.5162746, 13.3777041 (Brandenburger Tor, Berlin)\n"))
        XCTAssertTrue(try run("show", "1").stdout.contains("Coordinate:  52.5162746, 13.3777041\n"))
        let request = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(request.method, "GET")
        XCTAssertEqual(request.query, ["q": "Pariser Platz 1, Berlin", "format": "jsonv2", "limit": "1"])
        XCTAssertEqual(request.headers["user-agent"], "todo/0.1.0")
    }

    func test_geocoding_aSlowServer_timesOutAndTheItemIsSaved() throws {
        try startServer { _ in .init(body: #"[{"lat": "1", "lon": "2"}]"#, delay: 30) }
        todo.environment["TODO_HTTP_TIMEOUT"] = "1"
        let start = Date()
        XCTAssertEqual(
            try run("add", "Water", "--location", "Garden", "--address", "Main St"),
            Outcome(
                status: 0, stdout: "Added 1: Water (at Garden)\n",
                stderr:
                    "Warning: could not look up 'Main St': the geocoder could not be reached: no answer within 1 second; saved without a coordinate\n"
            ))
        XCTAssertLessThan(Date().timeIntervalSince(start), 10)
        XCTAssertTrue(try run("show", "1").stdout.contains("Coordinate:  -\n"))
    }

    func test_geocoding_aFailingServer_orNonsense_isAWarning() throws {
        try startServer { request in
            request.query["q"] == "fail"
                ? .init(status: 500, body: "Internal Server Error", contentType: "text/plain")
                : .init(body: "<html>busy</html>", contentType: "text/html")
        }
        XCTAssertEqual(
            try run("add", "One", "--location", "Here", "--address", "fail"),
            Outcome(
                status: 0, stdout: "Added 1: One (at Here)\n",
                stderr:
                    "Warning: could not look up 'fail': the geocoder answered HTTP 500; saved without a coordinate\n"))
        XCTAssertEqual(
            try run("add", "Two", "--location", "Here", "--address", "html"),
            Outcome(
                status: 0, stdout: "Added 2: Two (at Here)\n",
                stderr:
                    "Warning: could not look up 'html': the geocoder's answer cannot be read: not JSON: unexpected '<', expected a value at line 1, column 1 (byte 0); saved without a coordinate\n"
            ))
    }

    func test_geocoding_nobodyListening_isAWarning() throws {
        let unused = try LocalHTTPServer { _ in .init(body: "") }
        let url = unused.url("/search")
        unused.stop()
        todo.environment["TODO_GEOCODER_URL"] = url
        let outcome = try run("add", "Water", "--location", "Garden", "--address", "Main St")
        XCTAssertEqual(outcome.status, 0)
        XCTAssertEqual(outcome.stdout, "Added 1: Water (at Garden)\n")
        XCTAssertTrue(
            outcome.stderr.hasPrefix("Warning: could not look up 'Main St': the geocoder could not be reached: "),
            outcome.stderr)
        XCTAssertTrue(outcome.stderr.hasSuffix("; saved without a coordinate\n"), outcome.stderr)
    }

    // MARK: Sync

    /// A server that takes only Digest authentication (Baïkal's default) is said as such, not as a
    /// wrong password, and setup records nothing.
    func test_syncSetup_withAServerThatTakesOnlyDigest_saysSo() throws {
        try startServer { _ in
            .init(
                status: 401, bytes: Array("Unauthorized".utf8), contentType: "text/plain",
                headers: [#"WWW-Authenticate: Digest realm="BaikalDAV", qop="auth", nonce="6501", opaque="0c2""#])
        }
        todo.environment["TODO_SYNC_PASSWORD"] = "secret"
        let outcome = try run("sync", "setup", server.url("/dav.php/"), "--user", "alice")
        XCTAssertEqual(
            outcome,
            Outcome(
                status: 1, stdout: "",
                stderr: """
                    Error: cannot sync: the server takes only Digest authentication (401), and todo signs in with Basic over HTTPS; \
                    set the server to accept Basic (Baïkal: Admin, Settings, WebDAV authentication type)

                    """))
        XCTAssertFalse(FileManager.default.fileExists(atPath: fileURL.path + ".sync"))
    }
}

/// `todo import URL` against a real server: the book's `GET …/items`.
final class URLImportTests: BinaryTestCase {
    private var server: LocalHTTPServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try LocalHTTPServer { request in
            switch request.path {
            case "/items":
                return .init(
                    body: """
                        [{"id": "9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F", "title": "Call Mom", "timestamp": 1641772800, "done": false},
                         {"title": "Buy milk", "location": {"name": "Shop", "coordinate": {"latitude": 52.5, "longitude": 13.4}}, "done": true}]
                        """)
            case "/moved":
                return .init(status: 301, bytes: [], contentType: "text/plain", headers: ["Location: /items"])
            case "/loop": return .init(status: 302, bytes: [], contentType: "text/plain", headers: ["Location: /loop"])
            case "/slow": return .init(body: "[]", delay: 30)
            case "/broken": return .init(status: 500, body: "Internal Server Error", contentType: "text/plain")
            default: return .init(body: "{\"items\": [{\"title\": ")
            }
        }
    }

    override func tearDown() {
        server = nil
        super.tearDown()
    }

    func test_import_fromTheServer_addsItsItems() throws {
        XCTAssertEqual(
            try todo.run(["import", server.url("/items")]),
            Outcome(
                status: 0,
                stdout: """
                    Added 1: Call Mom (due Monday 01/10/22)
                    Added 2: Buy milk (at Shop)
                    Imported 2 items from \(server.url("/items")) (json).

                    """, stderr: ""))
        XCTAssertEqual(
            try todo.run(["import", server.url("/items")]).stdout,
            """
            Skipped [0] "Call Mom": its id is already in the list, as 1 "Call Mom"
            Skipped [1] "Buy milk": its id is already in the list, as 2 "Buy milk"
            Imported 0 items from \(server.url("/items")) (json); skipped 2.

            """)
        XCTAssertEqual(server.requests.first?.headers["user-agent"], "todo/0.1.0")
        XCTAssertEqual(server.requests.first?.method, "GET")
    }

    /// A moved list is followed to where it went; a redirect loop ends with an error.
    func test_import_followsARedirect_andARedirectLoopIsAnError() throws {
        XCTAssertEqual(
            try todo.run(["import", server.url("/moved")]).stdout.split(separator: "\n").last,
            "Imported 2 items from \(server.url("/moved")) (json).")
        XCTAssertEqual(server.requests.map(\.path), ["/moved", "/items"])
        let loop = try todo.run(["import", server.url("/loop")])
        XCTAssertEqual(loop.status, 1)
        XCTAssertTrue(loop.stderr.contains("more than 10 redirects"), loop.stderr)
    }

    func test_import_aSlowServer_aFailingOne_andNonsense_changeNothing() throws {
        XCTAssertEqual(try todo.run(["add", "Keep me"]).status, 0)
        let before = try Data(contentsOf: fileURL)
        todo.environment["TODO_HTTP_TIMEOUT"] = "1"
        let start = Date()
        XCTAssertEqual(
            try todo.run(["import", server.url("/slow")]),
            Outcome(
                status: 1, stdout: "",
                stderr: """
                    Error: cannot read \(server.url("/slow")): no answer within 1 second; nothing was imported

                    """))
        XCTAssertLessThan(Date().timeIntervalSince(start), 10)
        XCTAssertEqual(
            try todo.run(["import", server.url("/broken")]),
            Outcome(
                status: 1, stdout: "",
                stderr: """
                    Error: cannot read \(server.url("/broken")): the server answered HTTP 500; nothing was imported

                    """))
        XCTAssertEqual(
            try todo.run(["import", server.url("/cut-short")]),
            Outcome(
                status: 65, stdout: "",
                stderr: """
                    Error: cannot import \(server.url("/cut-short")): not JSON: unexpected end of file, expected a value at line 1, column 22 (byte 21); nothing was imported

                    """))
        XCTAssertEqual(try Data(contentsOf: fileURL), before)
    }

}
