import Foundation
import ToDoModel
import XCTest

@testable import ToDoCore

/// What a sync decides, before it touches either side: changes going each way, edits beating
/// deletes, first syncs pairing instead of doubling, and deletes of too much refused.
final class SyncPlanTests: XCTestCase {
    private func item(
        _ title: String, id: Int, number: Int = 0, done: Bool = false, modifiedAt: Double? = nil, uid: String? = nil
    ) -> ToDoItem {
        var item = ToDoItem(
            id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", id))!, number: number, done: done,
            fields: ItemFields(title: title))
        item.fields.modifiedAt = modifiedAt
        item.fields.originalUID = uid
        return item
    }

    private func record(_ base: ToDoItem, etag: String = "\"1\"") -> SyncPlan.Record {
        SyncPlan.Record(id: base.id, href: "/cal/\(base.uid).ics", etag: etag, base: base)
    }

    private func remote(_ item: ToDoItem, etag: String = "\"1\"") -> SyncPlan.RemoteItem {
        SyncPlan.RemoteItem(href: "/cal/\(item.uid).ics", etag: etag, item: item)
    }

    func test_nothingChanged_plansNothing() {
        let tea = item("Tea", id: 1, number: 1)
        let plan = SyncPlan.make(
            localItems: [tea], remoteItems: [remote(tea)], records: [record(tea)], tieBreaker: .local)
        XCTAssertEqual(plan.local, [])
        XCTAssertEqual(plan.remote, [])
        XCTAssertEqual(plan.records, [record(tea)])
    }

    func test_changesGoBothWays_andNewItemsArriveAndAreSent() {
        let tea = item("Tea", id: 1, number: 1), milk = item("Milk", id: 2, number: 2)
        let renamedHere = item("Green tea", id: 1, number: 1, modifiedAt: 10)
        let checkedThere = item("Milk", id: 2, done: true, modifiedAt: 20)
        let new = item("Bread", id: 3, number: 3), arrived = item("Call Mom", id: 4, uid: "phone-4@example.com")
        let plan = SyncPlan.make(
            localItems: [renamedHere, milk, new],
            remoteItems: [remote(tea), remote(checkedThere, etag: "\"2\""), remote(arrived)],
            records: [record(tea), record(milk)], tieBreaker: .local)
        XCTAssertEqual(
            plan.remote,
            [.put(renamedHere, href: "/cal/\(tea.uid).ics", etag: "\"1\""), .put(new, href: nil, etag: nil)])
        guard plan.local.count == 2, case .update(let milkHere) = plan.local[0], case .add(let call) = plan.local[1]
        else {
            return XCTFail("\(plan.local)")
        }
        XCTAssertTrue(milkHere.done)
        XCTAssertEqual(milkHere.number, 2, "numbers stay local")
        XCTAssertEqual(call.uid, "phone-4@example.com")
        XCTAssertTrue(plan.conflicts.isEmpty)
        // The records: the server's versions; bread, not there yet, has none.
        XCTAssertEqual(plan.records.map(\.base.title), ["Tea", "Milk", "Call Mom"])
        XCTAssertEqual(plan.records.map(\.etag), ["\"1\"", "\"2\"", "\"1\""])
    }

    /// An edit beats a delete, on either side; an unedited item goes with its delete.
    func test_anEditBeatsADelete_andAnUneditedItemIsDeleted() {
        let tea = item("Tea", id: 1, number: 1), milk = item("Milk", id: 2, number: 2)
        let bread = item("Bread", id: 3, number: 3), eggs = item("Eggs", id: 4, number: 4)
        let teaEdited = item("Green tea", id: 1, number: 1), eggsEditedThere = item("Eggs, a dozen", id: 4)
        // Deleted there: tea (edited here), milk (not). Deleted here: bread (not edited there), eggs (edited there).
        let plan = SyncPlan.make(
            localItems: [teaEdited, milk], remoteItems: [remote(bread), remote(eggsEditedThere, etag: "\"2\"")],
            records: [record(tea), record(milk), record(bread), record(eggs)], tieBreaker: .local)
        XCTAssertEqual(
            plan.remote,
            [.put(teaEdited, href: nil, etag: nil), .delete(href: "/cal/\(bread.uid).ics", etag: "\"1\"", item: bread)])
        XCTAssertEqual(plan.local, [.remove(milk), .add(eggsEditedThere)])
        XCTAssertEqual(plan.keptAgainstDelete.map(\.item.title), ["Green tea", "Eggs, a dozen"])
        XCTAssertEqual(plan.keptAgainstDelete.map(\.deletedOn), [.remote, .local])
        XCTAssertEqual(
            plan.records.map(\.base.title), ["Bread", "Eggs, a dozen"], "bread's until the server deletes it")
    }

    /// Two lists that already hold the same items, synced for the first time, double nothing:
    /// paired by UID, then open items by content; a done item is never paired by content.
    func test_aFirstSync_pairsByIDThenByContent() {
        let tea = item("Tea", id: 1, number: 1), milk = item("Milk", id: 2, number: 2),
            old = item("Old", id: 5, number: 3, done: true)
        let teaThere = item("Tea", id: 1, modifiedAt: 5), milkThere = item("Milk", id: 9, uid: "milk@phone")
        let oldThere = item("Old", id: 8, done: true)
        let plan = SyncPlan.make(
            localItems: [tea, milk, old], remoteItems: [remote(teaThere), remote(milkThere), remote(oldThere)],
            records: [], tieBreaker: .local)
        XCTAssertEqual(plan.remote, [.put(old, href: nil, etag: nil)])
        // Milk, paired by content, keeps its id here and learns the phone's UID.
        var milkPaired = milk
        milkPaired.fields.originalUID = "milk@phone"
        XCTAssertEqual(plan.local, [.update(milkPaired), .add(oldThere)])
        XCTAssertTrue(plan.conflicts.isEmpty)
    }

    /// Deleting all of a side, or more than half of a side of more than ten, is what a wrong
    /// calendar looks like: the caller refuses it unless forced.
    func test_deletingTooMuch_isSaid() {
        let items = (1...12).map { item("Item \($0)", id: $0, number: $0) }
        let plan = SyncPlan.make(
            localItems: items, remoteItems: [], records: items.map { record($0) }, tieBreaker: .local)
        XCTAssertEqual(plan.deletions.local, 12)
        XCTAssertTrue(plan.deletesTooMuch(localCount: 12, remoteCount: 0))
        let some = SyncPlan.make(
            localItems: items, remoteItems: items.dropFirst(5).map { remote($0) }, records: items.map { record($0) },
            tieBreaker: .local)
        XCTAssertEqual(some.deletions.local, 5)
        XCTAssertFalse(some.deletesTooMuch(localCount: 12, remoteCount: 7))
    }
}
