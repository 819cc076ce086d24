import Foundation
import ToDoModel
import XCTest

@testable import ToDoCore

/// The three-way merge of one item: each side's changes kept, the later change winning a field
/// both changed, and what lost said.
final class ItemMergeTests: XCTestCase {
    private let id = UUID(uuidString: "9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F")!

    private func item(
        _ title: String = "Buy milk", due: Double? = nil, priority: Int? = nil, tags: [String] = [], done: Bool = false,
        modifiedAt: Double? = nil, lines: [String] = []
    ) -> ToDoItem {
        var item = ToDoItem(title: title, timestamp: due, id: id, priority: priority, tags: tags)
        item.done = done
        if done { item.fields.completedAt = 1_800_000_000 }
        item.fields.modifiedAt = modifiedAt
        item.fields.icalendarLines = lines
        return item
    }

    func test_aFieldChangedOnOneSide_takesThatSidesValue_andDifferentFieldsAreBothKept() {
        let base = item()
        let local = item("Buy oat milk", modifiedAt: 20)
        let remote = item(
            priority: 1, tags: ["shop"], modifiedAt: 30, lines: ["BEGIN:VALARM", "TRIGGER:-PT15M", "END:VALARM"])
        let merged = ItemMerge.merge(base: base, local: local, remote: remote, tieBreaker: .local)
        XCTAssertEqual(merged.item.title, "Buy oat milk")
        XCTAssertEqual(merged.item.priority, 1)
        XCTAssertEqual(merged.item.tags, ["shop"])
        XCTAssertEqual(
            merged.item.icalendarLines, ["BEGIN:VALARM", "TRIGGER:-PT15M", "END:VALARM"],
            "the calendar's own properties are kept")
        XCTAssertEqual(merged.conflicts, [])
        XCTAssertTrue(merged.changesLocal)
        XCTAssertTrue(merged.changesRemote)
        XCTAssertEqual(merged.item.modifiedAt, 30)
    }

    /// Properties only the calendar changed (a server adding its own) change nothing here.
    func test_theCalendarsOwnProperties_areNoChange() {
        let base = item()
        let merged = ItemMerge.merge(
            base: base, local: item(), remote: item(lines: ["X-SERVER-NOTE:rewritten"]), tieBreaker: .local)
        XCTAssertFalse(merged.changesLocal)
        XCTAssertFalse(merged.changesRemote)

    }

    func test_theSameFieldChangedOnBothSides_theLaterChangeWins_andTheLoserIsSaid() {
        let base = item(due: 1_000)
        let local = item("Buy oat milk", due: 2_000, modifiedAt: 50)
        let remote = item("Buy soy milk", due: 3_000, modifiedAt: 40)
        let merged = ItemMerge.merge(base: base, local: local, remote: remote, tieBreaker: .remote)
        XCTAssertEqual(merged.item.title, "Buy oat milk")
        XCTAssertEqual(merged.item.timestamp, 2_000)
        XCTAssertEqual(merged.conflicts.map(\.field), [.title, .due])
        XCTAssertEqual(merged.conflicts.map(\.winner), [.local, .local])
        XCTAssertEqual(merged.conflicts.first?.lost.title, "Buy soy milk")
        XCTAssertFalse(merged.changesLocal)
        XCTAssertTrue(merged.changesRemote)

        // The phone's later change wins instead; no time on one side is decided by the tie-breaker.
        XCTAssertEqual(
            ItemMerge.merge(
                base: base, local: item("A", modifiedAt: 10), remote: item("B", modifiedAt: 11), tieBreaker: .local
            ).item.title, "B")
        XCTAssertEqual(
            ItemMerge.merge(base: base, local: item("A"), remote: item("B", modifiedAt: 11), tieBreaker: .local).item
                .title, "A")
        XCTAssertEqual(
            ItemMerge.merge(base: base, local: item("A"), remote: item("B", modifiedAt: 11), tieBreaker: .remote).item
                .title, "B")
        // Both changed to the same value: no conflict, nothing to send.
        let same = ItemMerge.merge(
            base: base, local: item("C", due: 1_000), remote: item("C", due: 1_000), tieBreaker: .local)
        XCTAssertEqual(same.conflicts, [])
        XCTAssertFalse(same.changesRemote)
    }

    /// Checked on the phone, renamed here: both kept.
    func test_statusFromOneSide_titleFromTheOther() {
        let merged = ItemMerge.merge(
            base: item(), local: item("Buy oat milk"), remote: item(done: true), tieBreaker: .local)
        XCTAssertTrue(merged.item.done)
        XCTAssertEqual(merged.item.completedAt, 1_800_000_000)
        XCTAssertEqual(merged.item.title, "Buy oat milk")
    }

    /// A first sync pairs two items without a base: where they differ, the later one wins.
    func test_withoutABase_everyDifferenceIsDecidedByTheLaterChange() {
        let merged = ItemMerge.merge(
            base: nil, local: item(priority: 5, modifiedAt: 100),
            remote: item(priority: 1, tags: ["x"], modifiedAt: 200),
            tieBreaker: .local)
        XCTAssertEqual(merged.item.priority, 1)
        XCTAssertEqual(merged.item.tags, ["x"])
        XCTAssertEqual(merged.conflicts.map(\.field), [.priority, .tags])
        XCTAssertEqual(
            ItemMerge.merge(base: nil, local: item(), remote: item(), tieBreaker: .local).changesRemote, false)
    }
}
