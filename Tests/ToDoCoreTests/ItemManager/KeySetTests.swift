import Foundation
@testable import ToDoCore
import TestSupport
import XCTest

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

    func test_ids_areFoundAndDuplicatesRefused() {
        let ids = (0..<10_000).map { _ in UUID() }
        var set = KeySet<UUID>(minimumCapacity: ids.count)
        for id in ids { XCTAssertTrue(set.insert(id)) }
        for id in ids { XCTAssertFalse(set.insert(id)) }
        XCTAssertEqual(set.count, ids.count)
        XCTAssertFalse(set.contains(UUID()))
    }
}
