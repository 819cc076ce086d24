import XCTest

@testable import ToDoModel

/// The book's Location tests (3rd edition, chapter 3), plus the address this model adds.
final class LocationTests: XCTestCase {
    func test_init_setsName() {
        let location = Location(name: "Foo")

        XCTAssertEqual(location.name, "Foo")
        XCTAssertNil(location.coordinate)
        XCTAssertNil(location.address)
    }

    func test_init_setsCoordinate() {
        let coordinate = Coordinate(latitude: 1, longitude: 2)
        let location = Location(name: "", coordinate: coordinate)

        XCTAssertEqual(location.coordinate?.latitude, coordinate.latitude)
        XCTAssertEqual(location.coordinate?.longitude, coordinate.longitude)
    }

    func test_init_setsAddress() {
        let location = Location(name: "Office", address: "Infinite Loop 1, Cupertino")

        XCTAssertEqual(location.address, "Infinite Loop 1, Cupertino")
    }

    func test_equalLocations_areEqual() {
        XCTAssertEqual(
            Location(name: "Foo", coordinate: Coordinate(latitude: 1, longitude: 2)),
            Location(name: "Foo", coordinate: Coordinate(latitude: 1, longitude: 2)))
        XCTAssertEqual(Location(name: "Foo"), Location(name: "Foo"))
    }

    func test_locations_whenNamesDiffer_areNotEqual() {
        XCTAssertNotEqual(Location(name: "Foo"), Location(name: "Bar"))
    }

    func test_locations_whenLatitudeDiffersByMoreThanTheTolerance_areNotEqual() {
        XCTAssertNotEqual(
            Location(name: "Foo", coordinate: Coordinate(latitude: 1, longitude: 0)),
            Location(name: "Foo", coordinate: Coordinate(latitude: 1.000_000_2, longitude: 0)))
    }

    func test_locations_whenLongitudeDiffersByMoreThanTheTolerance_areNotEqual() {
        XCTAssertNotEqual(
            Location(name: "Foo", coordinate: Coordinate(latitude: 0, longitude: 1)),
            Location(name: "Foo", coordinate: Coordinate(latitude: 0, longitude: 1.000_000_2)))
    }

    func test_locations_whenComponentsDifferWithinTheTolerance_areEqual() {
        XCTAssertEqual(
            Location(name: "Foo", coordinate: Coordinate(latitude: 1, longitude: 1)),
            Location(name: "Foo", coordinate: Coordinate(latitude: 1.000_000_05, longitude: 0.999_999_95)))
    }

    func test_locations_whenOnlyOneHasACoordinate_areNotEqual() {
        XCTAssertNotEqual(
            Location(name: "Foo", coordinate: Coordinate(latitude: 0, longitude: 0)),
            Location(name: "Foo"))
        XCTAssertNotEqual(
            Location(name: "Foo"),
            Location(name: "Foo", coordinate: Coordinate(latitude: 0, longitude: 0)))
    }

    func test_locations_whenOnlyTheAddressDiffers_areEqual() {
        // The spec's equality names name and coordinate only.
        XCTAssertEqual(Location(name: "Office", address: "A"), Location(name: "Office", address: "B"))
    }

    func test_json_omitsAbsentOptionalsAndKeepsKeyOrder() {
        XCTAssertEqual(
            String(decoding: Location(name: "Home").json.serializedCompactly(), as: UTF8.self),
            #"{"name":"Home"}"#)
        let full = Location(name: "Home", address: "Main St 1", coordinate: Coordinate(latitude: 1, longitude: 2))
        XCTAssertEqual(
            String(decoding: full.json.serializedCompactly(), as: UTF8.self),
            #"{"name":"Home","address":"Main St 1","coordinate":{"latitude":1,"longitude":2}}"#)
    }

    func test_json_keepsFieldsItDoesNotKnow() throws {
        let text = #"{"name":"Home","floor":3,"coordinate":{"latitude":1,"longitude":2,"altitude":40.5}}"#

        let location = try Location(json: JSONValue(parsing: Array(text.utf8)), path: "")

        XCTAssertEqual(
            String(decoding: location.json.serializedCompactly(), as: UTF8.self),
            #"{"name":"Home","coordinate":{"latitude":1,"longitude":2,"altitude":40.5},"floor":3}"#)
    }
}
