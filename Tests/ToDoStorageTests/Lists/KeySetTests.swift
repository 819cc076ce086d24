import Foundation
import TestSupport
import ToDoModel
import XCTest

@testable import ToDoStorage

/// `KeySet` behaves as the standard `Set` under random inserts and removals, including the removals
/// that must shift later keys back into the gap.
final class KeySetTests: XCTestCase {
    func test_randomOperations_matchTheStandardSet() {
        for denseBelow in [0, 200, 1 << 12] { checkRandomOperations(on: KeySet<Int>(denseBelow: denseBelow)) }
    }

    /// Keys below `denseBelow` go to the bitmap; the others still to the table.
    private func checkRandomOperations(on keys: KeySet<Int>) {
        var keys = keys
        var random = SeededGenerator(seed: 0x5E7)
        // Few distinct keys, so that runs of colliding keys form and are removed from.
        var expected = Set<Int>()
        for step in 0..<50_000 {
            let key = Int.random(in: -300...300, using: &random) * (Bool.random(using: &random) ? 1 : 1 << 40)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: XCTAssertEqual(keys.insert(key), expected.insert(key).inserted, "step \(step)")
            case 1:
                keys.remove(key)
                expected.remove(key)
            default: XCTAssertEqual(keys.contains(key), expected.contains(key), "step \(step)")
            }
            XCTAssertEqual(keys.count, expected.count, "step \(step)")
        }
        for key in expected { XCTAssertTrue(keys.contains(key)) }
    }

    /// Ids that differ only in a few bytes, wherever those are (sequential UUIDs as some tools and
    /// databases write them, `00000000-0000-0000-0000-000000000001`, …), spread over the table:
    /// before, such ids shared one slot, and reading 100,000 of them was quadratic.
    func test_idsThatDifferInFewBytes_spreadOverTheTable() {
        for position in [15, 14, 8, 7, 0] {
            var set = KeySet<UUID>()
            for index in 0..<50_000 {
                var bytes = [UInt8](repeating: 0, count: 16)
                bytes[position] = UInt8(index & 0xFF)
                bytes[position == 0 ? 1 : position - 1] = UInt8(index >> 8)
                let id = UUID(
                    uuid: (
                        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                        bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                    ))
                XCTAssertTrue(set.insert(id))
            }
            XCTAssertEqual(set.count, 50_000)
            XCTAssertLessThan(set.longestProbe, 64, "ids varying in bytes \(position) and next to it")
        }
        var numbers = KeySet<Int>()
        for index in 0..<50_000 { numbers.insert(index << 40) }
        XCTAssertLessThan(numbers.longestProbe, 64, "numbers varying in their high bits")
    }

    func test_ids_areFoundAndDuplicatesRefused() {
        let ids = (0..<10_000).map { _ in UUID() }
        var set = KeySet<UUID>(minimumCapacity: ids.count)
        for id in ids { XCTAssertTrue(set.insert(id)) }
        for id in ids { XCTAssertFalse(set.insert(id)) }
        XCTAssertEqual(set.count, ids.count)
        XCTAssertFalse(set.contains(UUID()))
    }
}
