import Foundation
import TestSupport
import ToDoCore
import XCTest

@testable import ToDoCLI

#if canImport(Glibc)
import Glibc
import ToDoModel
#endif

/// `add` and `edit` looking an address up on the geocoder, with the HTTP transport scripted.
final class AddressLookupTests: HarnessTestCase {
    private let springfield = #"[{"lat": "39.7817", "lon": "-89.6501", "display_name": "Springfield, Illinois"}]"#

    override func setUpWithError() throws {
        try super.setUpWithError()
        todo.environment["TODO_GEOCODER_URL"] = "http://geo.test/search"
    }

    /// The item's coordinate as stored, as `39.7817,-89.6501`.
    private func coordinate(of reference: String) throws -> String? {
        let outcome = todo.run("show", reference, "--json")
        guard case .object(let item) = try JSONValue(parsing: Array(outcome.stdout.utf8)),
            case .object(let location)? = item["location"], case .object(let coordinate)? = location["coordinate"],
            case .number(let latitude)? = coordinate["latitude"], case .number(let longitude)? = coordinate["longitude"]
        else { return nil }
        return "\(latitude),\(longitude)"
    }

    func test_add_looksTheAddressUpAndStoresTheCoordinate() throws {
        let transport = ScriptedTransport(body: springfield)
        todo.transport = transport
        XCTAssertOutcome(
            todo.run("add", "Water the plants", "--location", "Garden", "--address", "12 Market St, Springfield"),
            Outcome(
                status: 0, stdout: "Added 1: Water the plants (at Garden)\n",
                stderr: "Found '12 Market St, Springfield' at 39.7817, -89.6501 (Springfield, Illinois)\n"))
        XCTAssertEqual(try coordinate(of: "1"), "39.7817,-89.6501")
        XCTAssertEqual(
            transport.requests.map(\.url.absoluteString),
            ["http://geo.test/search?q=12%20Market%20St%2C%20Springfield&format=jsonv2&limit=1"])
        XCTAssertEqual(transport.requests.first?.headers["User-Agent"], "todo/\(HelpRenderer.version)")
        XCTAssertEqual(transport.requests.first?.timeout, 5)
    }

    /// Geocoding is opt-in: without a geocoder an address is saved as given, without a word.
    func test_add_withoutAGeocoder_savesTheItemQuietly() throws {
        todo.environment["TODO_GEOCODER_URL"] = nil
        XCTAssertOutcome(
            todo.run("add", "Water", "--location", "Garden", "--address", "12 Market St"),
            Outcome(status: 0, stdout: "Added 1: Water (at Garden)\n", stderr: ""))
        XCTAssertNil(try coordinate(of: "1"))
    }

    func test_add_whenTheLookUpFails_savesTheItemWithoutACoordinateAndSaysWhy() throws {
        let failures: [(ScriptedTransport, String)] = [
            (ScriptedTransport(status: 500, body: "down"), "the geocoder answered HTTP 500"),
            (ScriptedTransport(body: "[]"), "the geocoder found no place"),
            (
                ScriptedTransport(body: "{oops"),
                "the geocoder's answer cannot be read: not JSON: unexpected 'o', expected a string key at line 1, column 2 (byte 1)"
            ),
            (
                ScriptedTransport(failing: .timedOut(seconds: 5)),
                "the geocoder could not be reached: no answer within 5 seconds"
            )
        ]
        for (index, (transport, reason)) in failures.enumerated() {
            todo.transport = transport
            XCTAssertOutcome(
                todo.run("add", "Water \(index)", "--location", "Garden", "--address", "Main St"),
                Outcome(
                    status: 0, stdout: "Added \(index + 1): Water \(index) (at Garden)\n",
                    stderr: "Warning: could not look up 'Main St': \(reason); saved without a coordinate\n"))
            XCTAssertNil(try coordinate(of: "\(index + 1)"))
        }
    }

    func test_add_withNoGeocodeOrACoordinate_asksNobody() throws {
        let transport = ScriptedTransport(body: springfield)
        todo.transport = transport
        XCTAssertOutcome(
            todo.run("add", "Water", "--location", "Garden", "--address", "Main St", "--no-geocode"),
            Outcome(status: 0, stdout: "Added 1: Water (at Garden)\n", stderr: ""))
        XCTAssertOutcome(
            todo.run("add", "Weed", "--location", "Garden", "--address", "Main St", "--coordinate", "1,2"),
            Outcome(status: 0, stdout: "Added 2: Weed (at Garden)\n", stderr: ""))
        XCTAssertOutcome(
            todo.run("add", "Rake", "--location", "Garden"),
            Outcome(status: 0, stdout: "Added 3: Rake (at Garden)\n", stderr: ""))
        XCTAssertEqual(transport.requests, [])
        XCTAssertNil(try coordinate(of: "1"))
    }

    func test_addFromStandardInput_looksTheAddressUpOnce() throws {
        let transport = ScriptedTransport(body: springfield)
        todo.transport = transport
        XCTAssertEqual(
            todo.run("add", "-", "--location", "Garden", "--address", "Main St", input: "Water\nWeed\n").status, 0)
        XCTAssertEqual(transport.requests.count, 1)
        XCTAssertNotNil(try coordinate(of: "2"))
    }

    func test_edit_looksANewAddressUp() throws {
        todo.succeed("add", "Water", "--location", "Garden", "--address", "Old St", "--coordinate", "1,2")
        todo.transport = ScriptedTransport(body: springfield)
        XCTAssertOutcome(
            todo.run("edit", "1", "--address", "12 Market St"),
            Outcome(
                status: 0, stdout: "Edited 1: Water (at Garden)\n",
                stderr: "Found '12 Market St' at 39.7817, -89.6501 (Springfield, Illinois)\n"))
        XCTAssertEqual(try coordinate(of: "1"), "39.7817,-89.6501")

        todo.transport = ScriptedTransport(status: 503, body: "")
        XCTAssertOutcome(
            todo.run("edit", "1", "--address", "Elm St"),
            Outcome(
                status: 0, stdout: "Edited 1: Water (at Garden)\n",
                stderr: """
                    Warning: could not look up 'Elm St': the geocoder answered HTTP 503; the coordinate was left as it was

                    """))
        XCTAssertEqual(try coordinate(of: "1"), "39.7817,-89.6501")

        XCTAssertOutcome(
            todo.run("edit", "1", "--location", "Shed", "--address", "Elm St"),
            Outcome(
                status: 0,
                stdout: """
                    Edited 1: Water (at Shed)
                      Removed with the old place: coordinate 39.7817, -89.6501; give --address or --coordinate with --location to keep them

                    """,
                stderr: """
                    Warning: could not look up 'Elm St': the geocoder answered HTTP 503; saved without a coordinate

                    """))
        XCTAssertNil(try coordinate(of: "1"))

        let transport = ScriptedTransport(body: springfield)
        todo.transport = transport
        XCTAssertEqual(todo.run("edit", "1", "--address", "Elm St", "--coordinate", "3,4").stderr, "")
        XCTAssertEqual(todo.run("edit", "1", "--address", "Oak St", "--no-geocode").stderr, "")
        XCTAssertEqual(transport.requests, [])
    }

    /// A slow geocoder must not hold the lock that every other `todo` changing the list waits for.
    func test_lookUp_happensBeforeTheLockIsTaken() throws {
        let lockPath = todo.fileURL.path + ".lock"
        let lockWasFree = LockedFlag()
        todo.transport = ScriptedTransport { _ throws(HTTPError) in
            let descriptor = open(lockPath, O_RDWR | O_CREAT, 0o600)
            defer { close(descriptor) }
            lockWasFree.value = descriptor >= 0 && flock(descriptor, LOCK_EX | LOCK_NB) == 0
            return HTTPResponse(status: 200, body: Array(#"[{"lat": "1", "lon": "2"}]"#.utf8))
        }
        XCTAssertEqual(todo.run("add", "Water", "--location", "Garden", "--address", "Main St").status, 0)
        XCTAssertTrue(lockWasFree.value)
    }

    func test_aBadGeocoderSetting_isAUsageError_whenAnAddressIsToBeLookedUp() {
        for value in ["geo.test/search", "ftp://geo.test/search", "http://"] {
            todo.environment["TODO_GEOCODER_URL"] = value
            XCTAssertOutcome(
                todo.run("add", "Water", "--location", "Garden", "--address", "Main St"),
                Outcome(
                    status: 64, stdout: "",
                    stderr: """
                        Error: TODO_GEOCODER_URL is '\(value)'; use an http:// or https:// address, as https://nominatim.openstreetmap.org/search

                        """))
            XCTAssertNil(todo.fileContents)
        }
        XCTAssertOutcome(todo.run("add", "Water"), Outcome(status: 0, stdout: "Added 1: Water\n", stderr: ""))
        XCTAssertOutcome(
            todo.run("add", "Tap", "--location", "Garden", "--address", "Main St", "--no-geocode"),
            Outcome(status: 0, stdout: "Added 2: Tap (at Garden)\n", stderr: ""))
        todo.environment["TODO_GEOCODER_URL"] = "http://geo.test/search"
        todo.environment["TODO_HTTP_TIMEOUT"] = "0"
        XCTAssertOutcome(
            todo.run("edit", "1", "--location", "Garden", "--address", "Main St"),
            Outcome(
                status: 64, stdout: "",
                stderr: """
                    Error: TODO_HTTP_TIMEOUT is '0'; use a number of seconds above 0, as 5

                    """))
        XCTAssertEqual(todo.succeed("list"), "1 [ ] Water\n2 [ ] Tap    @Garden\n")
    }
}

/// A Bool set on one thread and read on another.
private final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = false
    var value: Bool {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
