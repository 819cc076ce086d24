import Foundation
import TestSupport
import ToDoCore
import XCTest

/// A hostile or broken server costs todo no more than its limits: a gzip bomb, an endless body and
/// an answer that trickles in are given up at the size limit or the deadline, with little memory,
/// and todo creates nothing outside its own files.
final class HostileServerTests: BinaryTestCase {
    private var server: LocalHTTPServer!

    override func tearDown() {
        server = nil
        super.tearDown()
    }

    /// Runs `todo` and returns what it did and the most memory it held (its resident high-water
    /// mark, read from /proc while it runs; 0 where there is no /proc).
    private func runMeasured(_ arguments: [String]) throws -> (Outcome, peakBytes: Int) {
        let running = try todo.start(arguments)
        let peak = SharedLog<Int>()
        let finished = SharedLog<Bool>()
        let sampler = Thread {
            let path = "/proc/\(running.processIdentifier)/status"
            while finished.count == 0 {
                if let status = try? String(contentsOfFile: path, encoding: .utf8),
                    let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                    let kilobytes = Int(line.split(separator: " ")[1])
                {
                    peak.append(kilobytes * 1024)
                }
                usleep(5_000)
            }
        }
        sampler.start()
        let outcome = running.finish()
        finished.append(true)
        return (outcome, peak.all.max() ?? 0)
    }

    /// A gzip bomb that inflates to a gigabyte of spaces from under 7 MB.
    private static let bomb = GzipBomb.make(inflatedSize: 1 << 30)

    func test_importingAGzipBomb_stopsAtTheLimit_withLittleMemory() throws {
        server = try LocalHTTPServer { _ in .init(bytes: Self.bomb, headers: ["Content-Encoding: gzip"]) }
        todo.environment["TODO_IMPORT_MAX_MB"] = "8"
        let start = Date()
        let (outcome, peak) = try runMeasured(["import", server.url("/list.json")])
        XCTAssertEqual(
            outcome,
            Outcome(
                status: 1, stdout: "",
                stderr: """
                    Error: cannot read \(server.url("/list.json")): the server sent a compressed answer (gzip), which todo did not ask for; nothing was imported

                    """))
        XCTAssertLessThan(Date().timeIntervalSince(start), 20)
        XCTAssertLessThan(peak, 200 << 20, "inflating stopped near the limit")
        XCTAssertFalse(FileManager.default.fileExists(atPath: fileURL.path))
    }

    func test_aGeocoderAnsweringWithABomb_orAnEndlessBody_isAWarning_andTheItemIsSaved() throws {
        server = try LocalHTTPServer { request in
            request.query["q"] == "bomb"
                ? .init(bytes: Self.bomb, headers: ["Content-Encoding: gzip"])
                : .init(bytes: [UInt8](repeating: 0x20, count: 1 << 16), repeats: 1 << 15)
        }
        todo.environment["TODO_GEOCODER_URL"] = server.url("/search")
        for (number, address) in ["bomb", "endless"].enumerated() {
            let (outcome, peak) = try runMeasured([
                "add", "Water \(address)", "--location", "Garden", "--address", address
            ])
            XCTAssertEqual(
                outcome,
                Outcome(
                    status: 0, stdout: "Added \(number + 1): Water \(address) (at Garden)\n",
                    stderr: "Warning: could not look up '\(address)': the geocoder could not be reached: "
                        + (address == "bomb"
                            ? "the server sent a compressed answer (gzip), which todo did not ask for"
                            : "the answer is larger than 4 MB, more than todo takes") + "; saved without a coordinate\n"
                ))
            XCTAssertLessThan(peak, 200 << 20, address)
        }
    }

    func test_anAnswerThatTricklesIn_endsByTheDeadline() throws {
        server = try LocalHTTPServer { _ in .init(bytes: Array("[".utf8), repeats: 1_000, pause: 0.1) }
        todo.environment["TODO_HTTP_TIMEOUT"] = "2"
        let start = Date()
        XCTAssertEqual(
            try todo.run(["import", server.url("/slow.json")]),
            Outcome(
                status: 1, stdout: "",
                stderr: """
                    Error: cannot read \(server.url("/slow.json")): no answer within 2 seconds; nothing was imported

                    """))
        XCTAssertLessThan(Date().timeIntervalSince(start), 6, "the timeout is a deadline for the whole request")
    }

    func test_aRequest_createsNothingOutsideTheListsOwnFiles() throws {
        server = try LocalHTTPServer { _ in .init(body: #"[{"title": "From the web"}]"#) }
        let dataHome = directory.file("data")
        try FileManager.default.createDirectory(at: dataHome, withIntermediateDirectories: false)
        todo.environment["XDG_DATA_HOME"] = dataHome.path
        todo.environment["XDG_CACHE_HOME"] = directory.file("cache").path
        XCTAssertEqual(try todo.run(["import", server.url("/list.json")]).status, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dataHome.path), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.file("cache").path))
        XCTAssertEqual(
            try directory.contents().filter { !$0.hasPrefix("data") }, storeFiles().filter { $0 != ".items.json.spare" }
        )
    }

    func test_aServerAskingForCredentials_isA401_notAWait() throws {
        server = try LocalHTTPServer { _ in
            .init(
                status: 401, bytes: Array("no".utf8), contentType: "text/plain",
                headers: [#"WWW-Authenticate: Basic realm="todo""#])
        }
        todo.environment["TODO_HTTP_TIMEOUT"] = "5"
        let start = Date()
        XCTAssertEqual(
            try todo.run(["import", server.url("/private.json")]),
            Outcome(
                status: 1, stdout: "",
                stderr: """
                    Error: cannot read \(server.url("/private.json")): the server answered HTTP 401; nothing was imported

                    """))
        XCTAssertLessThan(Date().timeIntervalSince(start), 4)
    }
}
