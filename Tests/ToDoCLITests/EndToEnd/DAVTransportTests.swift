import Foundation
import TestSupport
import ToDoCore
import ToDoNetwork
import ToDoURLSession
import XCTest

/// The HTTP transport `todo sync` will use, against a real Radicale and Xandikos on 127.0.0.1:
/// WebDAV methods with bodies, Basic credentials, a 401 that comes back (URLSession on Linux
/// otherwise waits for ever on one), redirects followed with the body, and headers read in any
/// letter case.
final class DAVTransportTests: XCTestCase {
    private var directory: TemporaryDirectory!
    /// The command line's transport (libcurl's easy interface on Linux), and URLSession's.
    private var transports: [any HTTPTransport] {
        #if os(Linux)
        [CurlTransport(), URLSessionTransport()]
        #else
        [URLSessionTransport()]
        #endif
    }
    private var transport: any HTTPTransport = URLSessionTransport()

    /// Runs `body` once with each transport.
    private func withEachTransport(_ body: () throws -> Void) rethrows {
        for transport in transports {
            self.transport = transport
            try body()
        }
    }
    private let alice = HTTPCredentials(user: "alice", password: "secret")

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    override func tearDown() {
        directory = nil
        super.tearDown()
    }

    private func propfind(
        _ url: WebAddress, depth: String, _ properties: String, credentials: HTTPCredentials?
    ) throws -> HTTPResponse {
        let body =
            #"<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop>"# + properties
            + "</d:prop></d:propfind>"
        return try transport.send(
            HTTPRequest(
                method: "PROPFIND", url: url,
                headers: ["Depth": depth, "Content-Type": "application/xml; charset=utf-8"],
                body: Array(body.utf8), credentials: credentials, timeout: 20, maximumBodyBytes: 1 << 20))
    }

    func test_radicale_propfindWithCredentials_andAWrongPasswordComesBackAs401() throws {
        try withEachTransport {
            let server = try DAVServer(.radicale, in: directory.url)
            let answer = try propfind(server.url, depth: "0", "<d:current-user-principal/>", credentials: alice)
            XCTAssertEqual(answer.status, 207, String(decoding: answer.body, as: UTF8.self))
            let principal = try DAVMultistatus(parsing: answer.body).responses.first?.property(
                DAVNamespace.dav, "current-user-principal")
            XCTAssertEqual(principal?.child(DAVNamespace.dav, "href")?.text, "/alice/")

            // Within the request's timeout, not for ever: the answer is the 401.
            let refused = try propfind(
                server.url, depth: "0", "<d:current-user-principal/>",
                credentials: HTTPCredentials(user: "alice", password: "wrong"))
            XCTAssertEqual(refused.status, 401)
            XCTAssertEqual(
                try propfind(server.url, depth: "0", "<d:current-user-principal/>", credentials: nil).status, 401)
        }
    }

    /// `/.well-known/caldav` redirects (Radicale 301, Xandikos 302); the PROPFIND goes on with its
    /// body, and the answer says where it came from.
    func test_wellKnownRedirect_isFollowedWithTheBody() throws {
        try withEachTransport {
            for (kind, credentials, principal) in [
                (DAVServer.Kind.radicale, alice, "/alice/"), (.xandikos, nil, "/user/")
            ] {
                let server = try DAVServer(kind, in: directory.url)
                let answer = try propfind(
                    server.url.appendingPathComponent(".well-known/caldav"), depth: "0", "<d:current-user-principal/>",
                    credentials: credentials)
                XCTAssertEqual(answer.status, 207, "\(kind)")
                XCTAssertEqual(
                    answer.redirectedTo.map { $0.path.contains("well-known") }, false,
                    "\(kind): where the answer came from")
                let response = try DAVMultistatus(parsing: answer.body).responses.first
                XCTAssertEqual(
                    response?.property(DAVNamespace.dav, "current-user-principal")?.child(DAVNamespace.dav, "href")?
                        .text, principal, "\(kind)")
            }
        }
    }

    /// A PUT that creates gives an ETag (read whatever its spelling); the same again is refused
    /// with 412, as `If-None-Match: *` asks.
    func test_xandikos_putGivesAnETag_andIfNoneMatchRefusesASecond() throws {
        try withEachTransport {
            let server = try DAVServer(.xandikos, in: directory.url)
            // A resource of its own for each transport: the server's folder is the same.
            let uid = UUID().uuidString
            let body = Array(
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VTODO\r\nUID:\(uid)\r\nSUMMARY:Tea\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
                    .utf8)
            let put = HTTPRequest(
                method: "PUT", url: server.url.appendingPathComponent("user/calendars/calendar/\(uid).ics"),
                headers: ["If-None-Match": "*", "Content-Type": "text/calendar; charset=utf-8"], body: body,
                timeout: 20, maximumBodyBytes: 1 << 20)
            let created = try transport.send(put)
            XCTAssertEqual(created.status, 201)
            XCTAssertTrue(created.header("ETag")?.hasPrefix("\"") ?? false, "\(created.headers)")
            XCTAssertEqual(created.header("etag"), created.header("ETAG"))
            XCTAssertEqual(try transport.send(put).status, 412)
        }
    }

    /// Requests one after another share one connection: a first sync's thousand PUTs to a server
    /// far away make one handshake, not a thousand.
    func test_requestsOneAfterAnother_shareOneConnection() throws {
        try withEachTransport {
            let server = try LocalHTTPServer(keepingConnectionsOpen: true) { _ in LocalHTTPServer.Response(body: "{}") }
            for index in 0..<5 {
                let answer = try transport.send(
                    HTTPRequest(
                        url: WebAddress(string: server.url("/\(index)"))!, timeout: 20, maximumBodyBytes: 1 << 20))
                XCTAssertEqual(answer.status, 200)
            }
            XCTAssertEqual(server.requests.map(\.path), ["/0", "/1", "/2", "/3", "/4"])
            XCTAssertEqual(server.connections, 1, "\(type(of: transport))")
        }
    }

    /// A 401 that asks for another scheme (Digest, as Baïkal does) comes back with its challenge,
    /// so that todo can say what the server wants.
    func test_a401ForAnotherScheme_comesBackWithItsChallenge() throws {
        try withEachTransport {
            let server = try LocalHTTPServer { _ in
                .init(
                    status: 401, bytes: [], contentType: "text/plain",
                    headers: [#"WWW-Authenticate: Digest realm="BaikalDAV", nonce="6501""#])
            }
            let answer = try transport.send(
                HTTPRequest(
                    url: WebAddress(string: server.url("/dav.php/"))!, credentials: alice, timeout: 20,
                    maximumBodyBytes: 1 << 20))
            XCTAssertEqual(answer.status, 401, "\(type(of: transport))")
            XCTAssertEqual(
                answer.header("WWW-Authenticate"), #"Digest realm="BaikalDAV", nonce="6501""#, "\(type(of: transport))")
        }
    }

    /// Credentials go with a redirect to the same origin only.
    func test_credentials_doNotFollowARedirectToAnotherOrigin() throws {
        try withEachTransport {
            let other = try LocalHTTPServer { _ in .init(status: 200, body: "ok", contentType: "text/plain") }
            let target = other.url("/elsewhere")
            let first = try LocalHTTPServer { request in
                request.path == "/start"
                    ? .init(status: 307, bytes: [], contentType: "text/plain", headers: ["Location: /same"])
                    : .init(status: 307, bytes: [], contentType: "text/plain", headers: ["Location: \(target)"])
            }
            let answer = try transport.send(
                HTTPRequest(
                    method: "REPORT", url: WebAddress(string: first.url("/start"))!, body: Array("<x/>".utf8),
                    credentials: alice, timeout: 20, maximumBodyBytes: 1 << 20))
            XCTAssertEqual(answer.status, 200)
            XCTAssertEqual(first.requests.map(\.path), ["/start", "/same"])
            XCTAssertEqual(
                first.requests.map { $0.headers["authorization"] }, [alice.basicAuthorization, alice.basicAuthorization]
            )
            XCTAssertEqual(other.requests.map(\.method), ["REPORT"])
            XCTAssertNil(other.requests.first?.headers["authorization"])
        }
    }
}
