import Foundation
import TestSupport
import ToDoModel
import XCTest

@testable import ToDoStorage

/// The hand-written reader and writer agree with Foundation's `JSONSerialization` on thousands of
/// random items: every escape, control character, non-ASCII and astral character, and numbers from
/// tiny to huge.
final class ToDoItemJSONEquivalenceTests: XCTestCase {
    /// The fields of an item as `JSONSerialization` represents them.
    static func foundationObject(_ item: ToDoItem) -> [String: Any] {
        var object: [String: Any] = [
            "id": item.id.uuidString, "number": item.number, "title": item.title, "done": item.done
        ]
        object["itemDescription"] = item.itemDescription
        object["timestamp"] = item.timestamp
        if let location = item.location {
            var place: [String: Any] = ["name": location.name]
            place["address"] = location.address
            if let coordinate = location.coordinate {
                place["coordinate"] = ["latitude": coordinate.latitude, "longitude": coordinate.longitude]
            }
            object["location"] = place
        }
        return object
    }

    /// Compares two `JSONSerialization` objects key by key: strings exactly, numbers as `Double`s,
    /// booleans as booleans, objects recursively.
    static func assertSame(
        _ actual: [String: Any], _ expected: [String: Any], _ label: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(Set(actual.keys), Set(expected.keys), label, file: file, line: line)
        for (key, value) in expected {
            switch value {
            case let string as String:
                XCTAssertEqual(actual[key] as? String, string, "\(label) \(key)", file: file, line: line)
            case let bool as Bool where key == "done":
                XCTAssertEqual((actual[key] as? NSNumber)?.boolValue, bool, "\(label) \(key)", file: file, line: line)
            case let object as [String: Any]:
                assertSame(actual[key] as? [String: Any] ?? [:], object, "\(label) \(key)", file: file, line: line)
            default:
                // JSONSerialization on Linux reads some decimals an ulp or two off (it reads
                // 237274889471.62738 as ...62735; the standard library and JSONDecoder read it
                // exactly), so its numbers are compared within a few ulps. Exactness is checked
                // by the round trip through JSONDecoder below.
                let got = (actual[key] as? NSNumber)?.doubleValue ?? .nan
                let want = (value as? NSNumber)?.doubleValue ?? 0
                XCTAssertEqual(
                    got, want, accuracy: Swift.max(abs(want) * 1e-15, 1e-300), "\(label) \(key)", file: file, line: line
                )
            }
        }
    }

    func test_ourWriter_isReadByJSONSerializationAsTheSameValues() throws {
        var random = SeededGenerator(seed: 11)
        for index in 0..<3_000 {
            let item = RandomItems.item(&random)
            var writer = JSONWriter()
            item.write(to: &writer)

            let object = try XCTUnwrap(
                JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String: Any], "case \(index)")

            Self.assertSame(object, Self.foundationObject(item), "case \(index)")
        }
    }

    func test_ourWriter_roundTripsExactlyThroughJSONDecoder() throws {
        var random = SeededGenerator(seed: 13)
        for index in 0..<3_000 {
            let item = RandomItems.item(&random)
            var writer = JSONWriter()
            item.write(to: &writer)

            let decoded = try JSONDecoder().decode(ToDoItem.self, from: Data(writer.bytes))
            let number = try JSONDecoder().decode([String: JSONValue].self, from: Data(writer.bytes))["timestamp"]

            XCTAssertEqual(decoded, item, "case \(index)")
            if let timestamp = item.timestamp, case .number(let literal)? = number {
                XCTAssertEqual(Double(literal), timestamp, "case \(index): exact")
            }
        }
    }

    func test_ourReader_readsWhatJSONSerializationWrites() throws {
        var random = SeededGenerator(seed: 12)
        for index in 0..<3_000 {
            let item = RandomItems.item(&random)
            let data = try JSONSerialization.data(withJSONObject: Self.foundationObject(item))

            let decoded = try Array(data).withUnsafeBufferPointer { buffer in
                var scanner = JSONScanner(bytes: buffer)
                return try ToDoItem(scanning: &scanner, path: { "" })
            }

            XCTAssertEqual(decoded, item, "case \(index)")
            XCTAssertEqual(decoded.location?.address, item.location?.address, "case \(index)")
            XCTAssertEqual(decoded.location?.coordinate, item.location?.coordinate, "case \(index)")
        }
    }
}
