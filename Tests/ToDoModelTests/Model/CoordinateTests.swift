import TestSupport
import ToDoStorage
import XCTest

@testable import ToDoModel

final class CoordinateTests: XCTestCase {
    func test_init_setsLatitudeAndLongitude() {
        let coordinate = Coordinate(latitude: 52.52, longitude: 13.405)

        XCTAssertEqual(coordinate.latitude, 52.52)
        XCTAssertEqual(coordinate.longitude, 13.405)
    }

    func test_isValid_acceptsTheWholeRangeOfTheEarth() {
        XCTAssertTrue(Coordinate(latitude: 90, longitude: 180).isValid)
        XCTAssertTrue(Coordinate(latitude: -90, longitude: -180).isValid)
        XCTAssertTrue(Coordinate(latitude: 0, longitude: 0).isValid)
    }

    func test_isValid_refusesOutOfRangeAndNonFiniteComponents() {
        XCTAssertFalse(Coordinate(latitude: 90.000_001, longitude: 0).isValid)
        XCTAssertFalse(Coordinate(latitude: 0, longitude: -180.5).isValid)
        XCTAssertFalse(Coordinate(latitude: .nan, longitude: 0).isValid)
        XCTAssertFalse(Coordinate(latitude: 0, longitude: .infinity).isValid)
    }

    func test_json_usesTheBooksKeys() throws {
        let json = Coordinate(latitude: 52.520008, longitude: -13.5).json

        XCTAssertEqual(
            String(decoding: json.serializedCompactly(), as: UTF8.self),
            #"{"latitude":52.520008,"longitude":-13.5}"#)
    }

    func test_initFromJSON_refusesAMissingComponentNamingIt() throws {
        let json = try JSONValue(parsing: Array(#"{"latitude": 1}"#.utf8))

        XCTAssertThrowsError(
            try Coordinate(json: json, path: "location.coordinate"),
            JSONShapeError(path: "location.coordinate.longitude", reason: "missing required field"))
    }
}
