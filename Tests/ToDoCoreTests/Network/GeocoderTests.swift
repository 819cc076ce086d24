import Foundation
import TestSupport
import ToDoModel
import XCTest

@testable import ToDoCore

final class GeocoderTests: XCTestCase {
    private let endpoint = WebAddress(string: "https://geo.example/search")!

    private func geocoder(_ transport: HTTPTransport, endpoint: WebAddress? = nil) -> Geocoder {
        Geocoder(endpoint: endpoint ?? self.endpoint, transport: transport, userAgent: "todo/9.9", timeout: 3)
    }

    func test_place_asksNominatimsSearchAndTakesTheFirstResult() throws {
        let transport = ScriptedTransport(
            body: """
                [{"place_id": 1, "lat": "39.7817", "lon": "-89.6501", "display_name": "Springfield, Illinois"},
                 {"lat": "1", "lon": "2", "display_name": "Elsewhere"}]
                """)
        let place = try geocoder(transport).place(for: "12 Market St, Springfield & Co+1 #2 Straße")
        XCTAssertEqual(
            place,
            GeocodedPlace(
                coordinate: Coordinate(latitude: 39.7817, longitude: -89.6501),
                displayName: "Springfield, Illinois"))
        XCTAssertEqual(
            transport.requests,
            [
                HTTPRequest(
                    url: WebAddress(
                        string:
                            "https://geo.example/search?q=12%20Market%20St%2C%20Springfield%20%26%20Co%2B1%20%232%20Stra%C3%9Fe&format=jsonv2&limit=1"
                    )!,
                    headers: ["User-Agent": "todo/9.9", "Accept": "application/json"], timeout: 3,
                    maximumBodyBytes: 4 << 20)
            ])
    }

    func test_place_keepsTheEndpointsOwnQuery() throws {
        let transport = ScriptedTransport(body: #"[{"lat": 52.5, "lon": 13.4}]"#)
        let place = try geocoder(transport, endpoint: WebAddress(string: "http://geo.example/search?key=abc")!).place(
            for: "Berlin")
        XCTAssertEqual(place, GeocodedPlace(coordinate: Coordinate(latitude: 52.5, longitude: 13.4), displayName: nil))
        XCTAssertEqual(
            transport.requests.map(\.url.absoluteString),
            ["http://geo.example/search?key=abc&q=Berlin&format=jsonv2&limit=1"])
    }

    func test_place_reportsEveryFailureApart() {
        let cases: [(HTTPTransport, GeocodingError)] = [
            (ScriptedTransport(body: "[]"), .noResult),
            (ScriptedTransport(status: 500, body: "oops"), .status(500)),
            (ScriptedTransport(status: 404, body: "[]"), .status(404)),
            (ScriptedTransport(failing: .timedOut(seconds: 3)), .transport(.timedOut(seconds: 3))),
            (
                ScriptedTransport(failing: .failed("Could not resolve host: geo.example")),
                .transport(.failed("Could not resolve host: geo.example"))
            ),
            (
                ScriptedTransport(body: "<html>"),
                .badResponse("not JSON: unexpected '<', expected a value at line 1, column 1 (byte 0)")
            ),
            (ScriptedTransport(body: #"{"lat": "1"}"#), .badResponse("expected an array of places, found an object")),
            (ScriptedTransport(body: #"["Berlin"]"#), .badResponse("expected a place object, found a string")),
            (ScriptedTransport(body: #"[{"lat": "1"}]"#), .badResponse("the place has no \"lon\"")),
            (
                ScriptedTransport(body: #"[{"lat": "north", "lon": "1"}]"#),
                .badResponse("\"lat\" is not a number: \"north\"")
            ),
            (
                ScriptedTransport(body: #"[{"lat": true, "lon": "1"}]"#),
                .badResponse("\"lat\" is a boolean, not a number")
            ),
            (
                ScriptedTransport(body: #"[{"lat": "91", "lon": "1"}]"#),
                .badResponse("the coordinate 91.0,1.0 is out of range")
            ),
            (
                ScriptedTransport(body: #"[{"lat": "nan", "lon": "1"}]"#),
                .badResponse("\"lat\" is not a number: \"nan\"")
            )
        ]
        for (transport, expected) in cases {
            XCTAssertThrows(try geocoder(transport).place(for: "x"), expected)
        }
    }

    func test_errors_sayWhatHappened() {
        XCTAssertEqual(
            GeocodingError.transport(.timedOut(seconds: 5)).description,
            "the geocoder could not be reached: no answer within 5 seconds")
        XCTAssertEqual(GeocodingError.status(503).description, "the geocoder answered HTTP 503")
        XCTAssertEqual(GeocodingError.noResult.description, "the geocoder found no place")
    }

    func test_isWebAddress_acceptsOnlyHTTPAndHTTPSWithAHost() {
        XCTAssertTrue(WebAddress(string: "https://nominatim.openstreetmap.org/search")!.isWebAddress)
        XCTAssertTrue(WebAddress(string: "HTTP://127.0.0.1:8080")!.isWebAddress)
        for text in ["ftp://x/y", "file:///etc/passwd", "nominatim.org/search", "http://", "mailto:a@b"] {
            XCTAssertFalse(WebAddress(string: text)?.isWebAddress ?? false, text)
        }
    }
}
