import Foundation
import TestSupport
import ToDoCore
import ToDoModel
import XCTest

/// The book's ItemManager tests (3rd edition, chapter 3), adapted to the uniqueness rules, then
/// the rules themselves and what the command line needs beyond the book.
final class ItemManagerTests: XCTestCase {
    var sut: ItemManager!

    override func setUp() {
        super.setUp()
        sut = ItemManager()
    }

    // MARK: The book's tests

    func test_toDoCount_initially_isZero() {
        XCTAssertEqual(sut.toDoCount, 0)
    }

    func test_doneCount_initially_isZero() {
        XCTAssertEqual(sut.doneCount, 0)
    }

    func test_addItem_increasesToDoCountToOne() throws {
        try sut.add(ToDoItem(title: "Foo"))

        XCTAssertEqual(sut.toDoCount, 1)
    }

    func test_itemAt_returnsAddedItem() throws {
        let item = ToDoItem(title: "Foo")
        try sut.add(item)

        let returnedItem = sut.item(at: 0)

        XCTAssertEqual(returnedItem.id, item.id)
        XCTAssertEqual(returnedItem.title, item.title)
    }

    func test_checkItemAt_changesCounts() throws {
        try sut.add(ToDoItem(title: "Foo"))

        sut.checkItem(at: 0)

        XCTAssertEqual(sut.toDoCount, 0)
        XCTAssertEqual(sut.doneCount, 1)
    }

    func test_checkItemAt_removesItFromToDoItems() throws {
        let first = ToDoItem(title: "First")
        let second = ToDoItem(title: "Second")
        try sut.add(first)
        try sut.add(second)

        sut.checkItem(at: 0)

        XCTAssertEqual(sut.item(at: 0).title, "Second")
    }

    func test_doneItemAt_returnsCheckedItem() throws {
        let item = ToDoItem(title: "Foo")
        try sut.add(item)

        sut.checkItem(at: 0)
        let returnedItem = sut.doneItem(at: 0)

        XCTAssertEqual(returnedItem.id, item.id)
        XCTAssertTrue(returnedItem.done)
    }

    func test_checkItemAt_movesToTheEndOfTheDoneItems() throws {
        try sut.add(ToDoItem(title: "A"))
        try sut.add(ToDoItem(title: "B"))
        try sut.add(ToDoItem(title: "C"))

        sut.checkItem(at: 2)
        sut.checkItem(at: 0)

        XCTAssertEqual(sut.doneItems.map(\.title), ["C", "A"])
        XCTAssertEqual(sut.toDoItems.map(\.title), ["B"])
    }

    func test_uncheckItemAt_movesBackToTheEndOfTheOpenItems() throws {
        try sut.add(ToDoItem(title: "A"))
        try sut.add(ToDoItem(title: "B"))
        sut.checkItem(at: 0)

        try sut.uncheckItem(at: 0)

        XCTAssertEqual(sut.toDoItems.map(\.title), ["B", "A"])
        XCTAssertEqual(sut.doneCount, 0)
        XCTAssertFalse(sut.item(at: 1).done)
    }

    func test_removeAll_resultsInCountsBeZero() throws {
        try sut.add(ToDoItem(title: "Foo"))
        try sut.add(ToDoItem(title: "Bar"))
        sut.checkItem(at: 0)

        sut.removeAll()

        XCTAssertEqual(sut.toDoCount, 0)
        XCTAssertEqual(sut.doneCount, 0)
    }

    func test_add_whenItemIsAlreadyAdded_throwsAndDoesNotIncreaseCount() throws {
        let item = ToDoItem(title: "Foo")
        let added = try sut.add(item)

        XCTAssertThrowsError(try sut.add(item), ItemManagerError.duplicateID(existing: added))
        XCTAssertEqual(sut.toDoCount, 1)
    }

    // MARK: Numbers

    func test_add_givesConsecutiveNumbersFromOne() throws {
        let first = try sut.add(ToDoItem(title: "A"))
        let second = try sut.add(ToDoItem(title: "B"))

        XCTAssertEqual(first.number, 1)
        XCTAssertEqual(second.number, 2)
        XCTAssertEqual(sut.nextNumber, 3)
    }

    func test_numbers_areNeverReusedAfterRemoval() throws {
        let first = try sut.add(ToDoItem(title: "A"))
        try sut.add(ToDoItem(title: "B"))
        try sut.removeItem(withID: first.id)
        sut.removeAll()

        let third = try sut.add(ToDoItem(title: "A"))

        XCTAssertEqual(third.number, 3)
    }

    func test_add_ignoresANumberTheItemAlreadyCarries() throws {
        let stored = try ItemManager(storedItems: [numbered(ToDoItem(title: "A"), 9)])
        var other = ItemManager()

        let added = try other.add(stored.item(at: 0))

        XCTAssertEqual(added.number, 1)
    }

    // MARK: Rule 1: ids and numbers are unique

    func test_add_refusesAnIDThatADoneItemHas() throws {
        let item = ToDoItem(title: "Foo")
        try sut.add(item)
        sut.checkItem(at: 0)

        XCTAssertThrowsError(
            try sut.add(ToDoItem(title: "Other", id: item.id)),
            ItemManagerError.duplicateID(existing: sut.doneItem(at: 0)))
        XCTAssertEqual(sut.toDoCount, 0)
    }

    func test_restore_refusesTwoItemsWithOneID() throws {
        let item = ToDoItem(title: "A")
        let twin = ToDoItem(title: "B", id: item.id)

        XCTAssertThrowsError(try ItemManager(storedItems: [item, twin]), ItemManagerError.duplicateID(existing: item))
    }

    func test_restore_refusesTwoItemsWithOneNumber() throws {
        let first = numbered(ToDoItem(title: "A"), 4)
        let second = numbered(ToDoItem(title: "B"), 4)

        XCTAssertThrowsError(
            try ItemManager(storedItems: [first, second]), ItemManagerError.duplicateNumber(existing: first))
    }

    /// A long list's ids and numbers are checked in two classes at once; what is refused, and
    /// named, is the first clash in list order, as when checked one item after another: ids
    /// and numbers of either class, across open and done items.
    func test_restore_ofALongList_refusesTheFirstClashInListOrder() throws {
        let count = 3_000
        var random = SeededGenerator(seed: 0x1D5)
        func id() -> UUID {
            UUID(
                uuid: (0..<16).reduce(into: [UInt8]()) { bytes, _ in bytes.append(.random(in: 0...255, using: &random))
                }
                .withUnsafeBytes { $0.load(as: uuid_t.self) })
        }
        let items = (1...count).map { stored("Item \($0)", number: $0, done: $0 % 4 == 0, id: id()) }
        var restored = try ItemManager(storedItems: items, nextNumber: 2)
        XCTAssertEqual(restored.nextNumber, count + 1)
        XCTAssertThrowsError(
            try restored.add(stored("New", id: items[2_999].id)), ItemManagerError.duplicateID(existing: items[2_999]))
        // In list order: the open items, then the done ones.
        let inListOrder = items.filter { !$0.done } + items.filter(\.done)
        // The item named is the first with the id or number in the clash's section.
        let openCount = items.count { !$0.done }
        for round in 0..<12 {
            let section = round % 2 == 0 ? 0..<openCount : openCount..<count
            let first = Int.random(in: section.lowerBound..<section.upperBound - 2, using: &random)
            let second = Int.random(in: first + 1..<section.upperBound - 1, using: &random)
            let later = Int.random(in: second + 1..<count, using: &random)
            let earlier = Int.random(in: 0..<first + 1, using: &random)
            var withID = inListOrder, withNumber = inListOrder, withBoth = inListOrder
            // A clash at `second` with `first`, another later.
            withID[second] = stored(
                "Twin", number: withID[second].number, done: withID[second].done, id: withID[first].id)
            withID[later] = stored(
                "Number twin", number: withID[earlier].number, done: withID[later].done, id: withID[later].id)
            XCTAssertThrowsError(
                try ItemManager(storedItems: withID), ItemManagerError.duplicateID(existing: inListOrder[first]))
            withNumber[second] = stored(
                "Twin", number: withNumber[first].number, done: withNumber[second].done, id: withNumber[second].id)
            withNumber[later] = stored(
                "Id twin", number: withNumber[later].number, done: withNumber[later].done, id: withNumber[earlier].id)
            XCTAssertThrowsError(
                try ItemManager(storedItems: withNumber), ItemManagerError.duplicateNumber(existing: inListOrder[first])
            )
            // An id twin and a number twin in one item: the id is named, as it is checked first.
            withBoth[second] = stored(
                "Both", number: withBoth[earlier].number, done: withBoth[second].done, id: withBoth[first].id)
            XCTAssertThrowsError(
                try ItemManager(storedItems: withBoth), ItemManagerError.duplicateID(existing: inListOrder[first]))
        }
    }

    func test_restore_numbersUnnumberedItemsInOrderAfterTheHighestNumber() throws {
        let restored = try ItemManager(
            storedItems: [ToDoItem(title: "A"), numbered(ToDoItem(title: "B"), 5), ToDoItem(title: "C")],
            nextNumber: 3)

        XCTAssertEqual(restored.toDoItems.map(\.number), [6, 5, 7])
        XCTAssertEqual(restored.nextNumber, 8)
    }

    func test_restore_keepsAHigherNextNumberAndRaisesALowerOne() throws {
        let kept = try ItemManager(storedItems: [numbered(ToDoItem(title: "A"), 2)], nextNumber: 10)
        let raised = try ItemManager(storedItems: [numbered(ToDoItem(title: "A"), 12)], nextNumber: 10)

        XCTAssertEqual(kept.nextNumber, 10)
        XCTAssertEqual(raised.nextNumber, 13)
    }

    func test_restore_separatesOpenAndDoneItemsKeepingTheirOrder() throws {
        let stored = [stored("D", done: true), stored("A"), stored("B", done: true), stored("C")]

        let restored = try ItemManager(storedItems: stored)

        XCTAssertEqual(restored.toDoItems.map(\.title), ["A", "C"])
        XCTAssertEqual(restored.doneItems.map(\.title), ["D", "B"])
        XCTAssertEqual(restored.allItems.map(\.number), [2, 4, 1, 3])
    }

    func test_numbers_stopAtTheLargestInsteadOfOverflowing() throws {
        var full = try ItemManager(storedItems: [], nextNumber: ToDoItem.largestNumber)
        let last = try full.add(ToDoItem(title: "Last"))

        XCTAssertEqual(last.number, ToDoItem.largestNumber)
        XCTAssertThrowsError(
            try full.add(ToDoItem(title: "One more")), ItemManagerError.numberOutOfRange(ToDoItem.largestNumber + 1))
        XCTAssertThrowsError(
            try ItemManager(storedItems: [], nextNumber: Int.max), ItemManagerError.numberOutOfRange(Int.max))
        XCTAssertThrowsError(
            try ItemManager(storedItems: [ToDoItem(title: "A")], nextNumber: ToDoItem.largestNumber + 1),
            ItemManagerError.numberOutOfRange(ToDoItem.largestNumber + 1))
    }

    // MARK: Rule 2: no two open items with the same content

    func test_add_refusesAnItemWithTheContentOfAnOpenItem() throws {
        let existing = try sut.add(
            ToDoItem(
                title: "Foo", itemDescription: "Bar", timestamp: 10,
                location: Location(name: "Home", coordinate: Coordinate(latitude: 1, longitude: 2))))
        let twin = ToDoItem(
            title: "Foo", itemDescription: "Bar", timestamp: 10,
            location: Location(name: "Home", coordinate: Coordinate(latitude: 1.000_000_01, longitude: 2)))

        XCTAssertThrowsError(try sut.add(twin), ItemManagerError.duplicateContent(existing: existing))
        XCTAssertEqual(sut.toDoCount, 1)
        XCTAssertEqual(sut.nextNumber, 2)
    }

    func test_add_acceptsAnItemThatDiffersInAnyField() throws {
        try sut.add(ToDoItem(title: "Foo", itemDescription: "Bar", timestamp: 10, location: Location(name: "Home")))

        try sut.add(ToDoItem(title: "Foo", itemDescription: "Bar", timestamp: 10, location: Location(name: "Work")))
        try sut.add(ToDoItem(title: "Foo", itemDescription: "Bar", timestamp: 11, location: Location(name: "Home")))
        try sut.add(ToDoItem(title: "Foo", itemDescription: nil, timestamp: 10, location: Location(name: "Home")))
        try sut.add(ToDoItem(title: "Foo!", itemDescription: "Bar", timestamp: 10, location: Location(name: "Home")))

        XCTAssertEqual(sut.toDoCount, 5)
    }

    func test_add_acceptsTheContentOfADoneItem() throws {
        try sut.add(ToDoItem(title: "Water the plants"))
        sut.checkItem(at: 0)

        let again = try sut.add(ToDoItem(title: "Water the plants"))

        XCTAssertEqual(again.number, 2)
        XCTAssertEqual(sut.toDoCount, 1)
        XCTAssertEqual(sut.doneCount, 1)
    }

    func test_duplicateContentError_namesTheExistingItem() throws {
        let existing = try sut.add(ToDoItem(title: "Call Mom"))

        XCTAssertThrowsError(try sut.add(ToDoItem(title: "Call Mom"))) { error in
            XCTAssertEqual(
                String(describing: error), #"an open item with the same content already exists: 1 "Call Mom""#)
        }
        XCTAssertEqual(existing.label, #"1 "Call Mom""#)
    }

    // MARK: Rule 3: unchecking and editing under rule 2

    func test_uncheckItemAt_refusesWhenAnOpenItemHasTheSameContent() throws {
        try sut.add(ToDoItem(title: "Foo"))
        sut.checkItem(at: 0)
        let reopened = try sut.add(ToDoItem(title: "Foo"))

        XCTAssertThrowsError(try sut.uncheckItem(at: 0), ItemManagerError.duplicateContent(existing: reopened))
        XCTAssertEqual(sut.doneCount, 1)
        XCTAssertEqual(sut.toDoCount, 1)
    }

    func test_updateItem_refusesToMakeAnOpenItemEqualToAnotherOpenItem() throws {
        let first = try sut.add(ToDoItem(title: "Foo"))
        let second = try sut.add(ToDoItem(title: "Bar"))

        XCTAssertThrowsError(
            try sut.updateItem(withID: second.id) { $0.title = "Foo" },
            ItemManagerError.duplicateContent(existing: first))
        XCTAssertEqual(sut.item(at: 1).title, "Bar")
    }

    func test_updateItem_acceptsAnOpenItemEqualToADoneItem() throws {
        try sut.add(ToDoItem(title: "Foo"))
        sut.checkItem(at: 0)
        let open = try sut.add(ToDoItem(title: "Bar"))

        let edited = try sut.updateItem(withID: open.id) { $0.title = "Foo" }

        XCTAssertEqual(edited.title, "Foo")
        XCTAssertEqual(sut.item(at: 0).title, "Foo")
    }

    func test_updateItem_acceptsADoneItemEqualToAnOpenItem() throws {
        let done = try sut.add(ToDoItem(title: "Foo"))
        sut.checkItem(at: 0)
        try sut.add(ToDoItem(title: "Bar"))

        try sut.updateItem(withID: done.id) { $0.title = "Bar" }

        XCTAssertEqual(sut.doneItem(at: 0).title, "Bar")
    }

    func test_updateItem_comparingAnItemWithItselfIsNoConflict() throws {
        let item = try sut.add(ToDoItem(title: "Foo"))

        let edited = try sut.updateItem(withID: item.id) { $0.itemDescription = nil }

        XCTAssertEqual(edited, item)
    }

    func test_updateItem_changesFieldsInPlaceKeepingIdentityAndPosition() throws {
        try sut.add(ToDoItem(title: "A"))
        let item = try sut.add(ToDoItem(title: "B"))
        try sut.add(ToDoItem(title: "C"))

        let edited = try sut.updateItem(withID: item.id) {
            $0.title = "B2"
            $0.itemDescription = "more"
            $0.timestamp = 100
            $0.location = Location(name: "Home")
        }

        XCTAssertEqual(sut.toDoItems.map(\.title), ["A", "B2", "C"])
        XCTAssertEqual(edited.id, item.id)
        XCTAssertEqual(edited.number, 2)
        XCTAssertEqual(edited.itemDescription, "more")
        XCTAssertEqual(edited.timestamp, 100)
        XCTAssertEqual(edited.location, Location(name: "Home"))
    }

    // MARK: Rule 4: a title is one non-empty line

    func test_add_refusesEmptyAndBlankTitles() {
        for title in ["", " ", "\t  "] {
            XCTAssertThrowsError(try sut.add(ToDoItem(title: title)), ItemManagerError.emptyTitle)
        }
        XCTAssertEqual(sut.toDoCount, 0)
        XCTAssertEqual(sut.nextNumber, 1)
    }

    func test_add_refusesTitlesWithLineBreaks() {
        for title in ["Foo\nBar", "Foo\r\nBar", "Foo\u{2028}Bar", "Foo\n"] {
            XCTAssertThrowsError(try sut.add(ToDoItem(title: title)), ItemManagerError.multilineTitle(title))
        }
        XCTAssertEqual(sut.toDoCount, 0)
    }

    func test_updateItem_refusesAnEmptyTitle() throws {
        let item = try sut.add(ToDoItem(title: "Foo"))

        XCTAssertThrowsError(try sut.updateItem(withID: item.id) { $0.title = "  " }, ItemManagerError.emptyTitle)
        XCTAssertEqual(sut.item(at: 0).title, "Foo")
    }

    func test_add_refusesAnOutOfRangeCoordinateAndANonFiniteDueDate() {
        let coordinate = Coordinate(latitude: 91, longitude: 0)

        XCTAssertThrowsError(
            try sut.add(ToDoItem(title: "A", location: Location(name: "X", coordinate: coordinate))),
            ItemManagerError.invalidCoordinate(coordinate))
        XCTAssertThrowsError(
            try sut.add(ToDoItem(title: "A", timestamp: .infinity)),
            ItemManagerError.invalidDueDate(.infinity))
        XCTAssertThrowsError(try sut.add(ToDoItem(title: "A", timestamp: 1e15)), ItemManagerError.invalidDueDate(1e15))
    }

    // MARK: Times

    func test_clock_stampsCreatedAndCompletedTimes() throws {
        let clock = StepClock(start: 1000)
        var manager = ItemManager(now: clock.next)

        let added = try manager.add(ToDoItem(title: "A"))
        let checked = try manager.checkItem(withID: added.id)
        let unchecked = try manager.uncheckItem(withID: added.id)

        XCTAssertEqual(added.createdAt, 1000)
        XCTAssertEqual(checked.completedAt, 1001)
        XCTAssertEqual(checked.createdAt, 1000)
        XCTAssertNil(unchecked.completedAt)
    }

    func test_clock_stampsWholeSeconds() throws {
        var manager = ItemManager(now: { Date(timeIntervalSince1970: 1000.999) })

        XCTAssertEqual(try manager.add(ToDoItem(title: "A")).createdAt, 1000)
    }

    func test_withoutAClock_noTimesAreRecorded() throws {
        let added = try sut.add(ToDoItem(title: "A"))
        let checked = try sut.checkItem(withID: added.id)

        XCTAssertNil(checked.createdAt)
        XCTAssertNil(checked.completedAt)
    }

    // MARK: Changes by id

    func test_checkItemWithID_onADoneItem_changesNothing() throws {
        let item = try sut.add(ToDoItem(title: "A"))
        let checked = try sut.checkItem(withID: item.id)

        XCTAssertEqual(try sut.checkItem(withID: item.id), checked)
        XCTAssertEqual(sut.doneCount, 1)
    }

    func test_uncheckItemWithID_onAnOpenItem_changesNothing() throws {
        let item = try sut.add(ToDoItem(title: "A"))

        XCTAssertEqual(try sut.uncheckItem(withID: item.id), item)
        XCTAssertEqual(sut.toDoCount, 1)
    }

    func test_removeItemWithID_removesOpenAndDoneItems() throws {
        let open = try sut.add(ToDoItem(title: "A"))
        let done = try sut.add(ToDoItem(title: "B"))
        try sut.checkItem(withID: done.id)

        try sut.removeItem(withID: open.id)
        try sut.removeItem(withID: done.id)

        XCTAssertTrue(sut.allItems.isEmpty)
    }

    func test_changesByID_throwForAnUnknownID() {
        let id = UUID()

        XCTAssertThrowsError(try sut.checkItem(withID: id), ItemManagerError.noSuchItem(.id(id)))
        XCTAssertThrowsError(try sut.uncheckItem(withID: id), ItemManagerError.noSuchItem(.id(id)))
        XCTAssertThrowsError(try sut.removeItem(withID: id), ItemManagerError.noSuchItem(.id(id)))
        XCTAssertThrowsError(try sut.updateItem(withID: id) { _ in }, ItemManagerError.noSuchItem(.id(id)))
    }

    func test_removeDoneItems_keepsOpenItems() throws {
        try sut.add(ToDoItem(title: "A"))
        try sut.add(ToDoItem(title: "B"))
        sut.checkItem(at: 0)

        let removed = sut.removeDoneItems()

        XCTAssertEqual(removed.map(\.title), ["A"])
        XCTAssertEqual(sut.allItems.map(\.title), ["B"])
    }

    // MARK: Look-up

    func test_resolve_findsByNumberIDAndPrefixInAnyCase() throws {
        let id = UUID(uuidString: "ABCDEF01-0000-4000-8000-000000000000")!
        let item = try sut.add(ToDoItem(title: "A", id: id))
        try sut.add(ToDoItem(title: "B", id: UUID(uuidString: "ABCD0000-0000-4000-8000-000000000000")!))
        try sut.checkItem(withID: item.id)

        XCTAssertEqual(try sut.resolve(.number(1)).id, id)
        XCTAssertEqual(try sut.resolve(.id(id)).id, id)
        XCTAssertEqual(try sut.resolve(.idPrefix("abcde")).id, id)
        XCTAssertEqual(try sut.resolve(.idPrefix("ABCDEF01-")).id, id)
    }

    func test_resolve_refusesAnAmbiguousPrefixNamingTheMatches() throws {
        let first = try sut.add(ToDoItem(title: "A", id: UUID(uuidString: "ABCDEF01-0000-4000-8000-000000000000")!))
        let second = try sut.add(ToDoItem(title: "B", id: UUID(uuidString: "ABCD0000-0000-4000-8000-000000000000")!))

        XCTAssertThrowsError(
            try sut.resolve(.idPrefix("abcd")),
            ItemManagerError.ambiguousReference(.idPrefix("abcd"), matches: [first, second]))
        XCTAssertThrowsError(try sut.resolve(.idPrefix("abcd"))) { error in
            XCTAssertEqual(String(describing: error), #""abcd" matches more than one item: 1 "A", 2 "B""#)
        }
    }

    func test_resolve_throwsWhenNothingMatches() throws {
        try sut.add(ToDoItem(title: "A"))

        XCTAssertThrowsError(try sut.resolve(.number(2)), ItemManagerError.noSuchItem(.number(2)))
        XCTAssertThrowsError(try sut.resolve([.number(1), .number(7)]), ItemManagerError.noSuchItem(.number(7)))
    }

    func test_resolveSeveral_keepsOrderAndNamesEachItemOnce() throws {
        let a = try sut.add(ToDoItem(title: "A"))
        let b = try sut.add(ToDoItem(title: "B"))

        XCTAssertEqual(try sut.resolve([.number(2), .id(a.id), .number(1), .number(2)]).map(\.id), [b.id, a.id])
    }

    // MARK: The rules under any sequence of changes

    func test_removedEditedAndClearedItems_noLongerBlockTheirContentOrID() throws {
        let removed = try sut.add(ToDoItem(title: "A"))
        try sut.removeItem(withID: removed.id)
        try sut.add(ToDoItem(title: "A", id: removed.id))

        let renamed = try sut.add(ToDoItem(title: "B"))
        try sut.updateItem(withID: renamed.id) { $0.title = "C" }
        try sut.add(ToDoItem(title: "B"))
        XCTAssertThrowsError(try sut.add(ToDoItem(title: "C")))

        let done = try sut.add(ToDoItem(title: "D"))
        try sut.checkItem(withID: done.id)
        sut.removeDoneItems()
        try sut.add(ToDoItem(title: "D", id: done.id))

        sut.removeAll()
        try sut.add(ToDoItem(title: "A", id: removed.id))
        try sut.add(ToDoItem(title: "C"))
    }

    func test_randomOperations_agreeWithTheRulesCheckedByBruteForce() throws {
        var random = SeededGenerator(seed: 42)
        let titles = ["A", "B", "C", "D"]
        var manager = ItemManager()
        for step in 0..<3_000 {
            let before = manager.allItems
            let open = manager.toDoItems
            let candidate = ToDoItem(
                title: titles.randomElement(using: &random)!,
                itemDescription: Bool.random(using: &random) ? nil : "x")
            let target = before.randomElement(using: &random)
            func conflicts(_ item: ToDoItem, except id: UUID?) -> Bool {
                open.contains { $0.id != id && $0.hasSameContent(as: item) }
            }
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                let refused = (try? manager.add(candidate)) == nil
                XCTAssertEqual(refused, conflicts(candidate, except: nil), "step \(step): add")
            case 4, 5:
                guard let target else { continue }
                let refused = (try? manager.uncheckItem(withID: target.id)) == nil
                XCTAssertEqual(refused, target.done && conflicts(target, except: nil), "step \(step): uncheck")
            case 6:
                guard let target else { continue }
                try manager.checkItem(withID: target.id)
            case 7:
                guard let target else { continue }
                var edited = target
                edited.title = candidate.title
                let refused = (try? manager.updateItem(withID: target.id) { $0.title = candidate.title }) == nil
                XCTAssertEqual(refused, !target.done && conflicts(edited, except: target.id), "step \(step): edit")
            case 8:
                guard let target else { continue }
                try manager.removeItem(withID: target.id)
            default:
                if step.isMultiple(of: 7) { manager.removeDoneItems() }
                if step.isMultiple(of: 97) { manager.removeAll() }
            }
            let openItems = manager.toDoItems
            for (index, item) in openItems.enumerated() {
                XCTAssertFalse(
                    openItems[(index + 1)...].contains { $0.hasSameContent(as: item) }, "step \(step): open twins")
            }
            XCTAssertEqual(Set(manager.allItems.map(\.id)).count, manager.allItems.count, "step \(step): ids")
        }
    }

    // MARK: Helpers

    /// `item` carrying `number`, as if read from a file.
    private func numbered(_ item: ToDoItem, _ number: Int) -> ToDoItem {
        stored(item.title, number: number, id: item.id)
    }

    /// An item as read from a file, with a number and status that only a file can set.
    private func stored(_ title: String, number: Int = 0, done: Bool = false, id: UUID = UUID()) -> ToDoItem {
        let json: JSONValue = .object(
            {
                var object = JSONObject()
                object["id"] = .string(id.uuidString)
                object["number"] = number > 0 ? .number(number) : nil
                object["title"] = .string(title)
                object["done"] = .bool(done)
                return object
            }())
        return try! ToDoItem(json: json, path: "")
    }
}

/// A clock that ticks one second each time it is read.
final class StepClock: @unchecked Sendable {
    private var seconds: Double
    private let lock = NSLock()

    init(start: Double) { seconds = start }

    var next: @Sendable () -> Date {
        { [self] in
            lock.lock()
            defer { lock.unlock() }
            defer { seconds += 1 }
            return Date(timeIntervalSince1970: seconds)
        }
    }
}

/// Rules the command line used to decide (issue 51), now the core's operations.
extension ItemManagerTests {
    /// Removing a list moves its items to the list given; without one, a list that holds items is
    /// refused (nothing removed), and a list no item is in is no list.
    func test_removeList_movesItsItems_andIsRefusedWithoutAListToTakeThem() throws {
        var manager = ItemManager()
        for (title, list) in [("Send report", "Work"), ("Plan offsite", "work"), ("Buy milk", nil)] {
            var item = ToDoItem(title: title)
            item.list = list
            try manager.add(item)
        }
        XCTAssertThrowsError(try manager.removeList("WORK", movingTo: String??.none)) { error in
            XCTAssertEqual(error as? ItemManagerError, .listHoldsItems("WORK", holding: 2))
        }
        XCTAssertEqual(manager.lists().map(\.name), [nil, "Work"])
        XCTAssertThrowsError(try manager.removeList("Home", movingTo: "Work")) { error in
            XCTAssertEqual(error as? ItemManagerError, .noSuchList("Home"))
        }
        let moved = try manager.removeList("Work", movingTo: .some(nil))
        XCTAssertEqual(moved.items.map(\.title), ["Send report", "Plan offsite"])
        XCTAssertEqual(manager.lists().map(\.open), [3])
    }

    /// Postponing moves the due and the start by the period from where they are; an item with
    /// neither is refused, as is one the period would take past the year 9999.
    func test_postpone_movesDueAndStart_andRefusesAnItemWithNeither() throws {
        var manager = ItemManager()
        let trip = try manager.add(
            ToDoItem(
                title: "Trip", due: .day(try XCTUnwrap(Day(year: 2027, month: 1, day: 31))),
                start: .day(try XCTUnwrap(Day(year: 2027, month: 1, day: 20)))))

        let someday = try manager.add(ToDoItem(title: "Someday"))
        let late = try manager.add(
            ToDoItem(title: "Late", due: .day(try XCTUnwrap(Day(year: 9999, month: 12, day: 30)))))
        let month = try XCTUnwrap(DatePeriod("1m"))
        let moved = try manager.postpone(itemWithID: trip.id, by: month, rules: .utc)
        XCTAssertEqual(moved.due, .day(try XCTUnwrap(Day(year: 2027, month: 2, day: 28))), "the month's last")
        XCTAssertEqual(moved.start, .day(try XCTUnwrap(Day(year: 2027, month: 2, day: 20))))
        XCTAssertThrowsError(try manager.postpone(itemWithID: someday.id, by: month, rules: .utc)) { error in
            XCTAssertEqual(error as? ItemManagerError, .nothingToPostpone(someday))
        }
        XCTAssertThrowsError(
            try manager.postpone(itemWithID: late.id, by: try XCTUnwrap(DatePeriod("1w")), rules: .utc)
        ) { error in
            XCTAssertEqual(error as? ItemManagerError, .postponedPastTheYears(late))
        }
    }

    /// A monthly repeat a person types from a due on the 29th to a month's end keeps the month's
    /// end, added or set by an edit (from the due the edit leaves); one written by a program
    /// (an iCalendar file, a server) keeps RFC 5545's meaning, as does any rule that is not a
    /// plain cadence.
    func test_aTypedMonthlyRepeat_keepsTheMonthsEnd_andAWrittenOneKeepsItsMeaning() throws {
        var manager = ItemManager()
        manager.localZone = .utc
        let due = ItemDate.day(try XCTUnwrap(Day(year: 2027, month: 1, day: 31)))
        let typed = try manager.add(ToDoItem(title: "Rent", due: due, repeatRule: "FREQ=MONTHLY"), repeatGiven: .typed)
        XCTAssertEqual(typed.repeatRule, "FREQ=MONTHLY;BYMONTHDAY=-1")
        let written = try manager.add(ToDoItem(title: "Imported", due: due, repeatRule: "FREQ=MONTHLY"))
        XCTAssertEqual(written.repeatRule, "FREQ=MONTHLY")
        let counted = try manager.add(
            ToDoItem(title: "Counted", due: due, repeatRule: "FREQ=MONTHLY;COUNT=3"), repeatGiven: .typed)
        XCTAssertEqual(counted.repeatRule, "FREQ=MONTHLY;COUNT=3")

        var edit = ItemEdit()
        edit.due = .set(.day(try XCTUnwrap(Day(year: 2027, month: 1, day: 30))))
        edit.repeatRule = .set("FREQ=MONTHLY;INTERVAL=2")
        XCTAssertEqual(
            try manager.edit(itemWithID: written.id, edit, repeatGiven: .typed).repeatRule,
            "FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=28,29,30;BYSETPOS=-1")
        XCTAssertEqual(try manager.edit(itemWithID: typed.id, edit).repeatRule, "FREQ=MONTHLY;INTERVAL=2")
    }

    /// An item may start after it is due (the command line warns): a day counts from its first
    /// moment in the user's zone, so a start at 09:00 on the due day is after a due of that day,
    /// and one at 23:00 the evening before is not.
    func test_startsAfterItsDue_comparesMomentsInTheUsersZone() throws {
        let berlin = TimeZoneRules(try XCTUnwrap(TimeZone(identifier: "Europe/Berlin")))
        let dates = DueDateFormatter(rules: berlin)
        let day = try XCTUnwrap(Day(year: 2027, month: 3, day: 10))
        let nineOClock = ItemDate.day(day).moment(in: berlin) + 9 * 3600
        XCTAssertFalse(
            ToDoItem(title: "a", due: .day(day), start: .time(nineOClock - 10 * 3600)).startsAfterItsDue(dates: dates))
        XCTAssertTrue(ToDoItem(title: "b", due: .day(day), start: .time(nineOClock)).startsAfterItsDue(dates: dates))
        XCTAssertTrue(
            ToDoItem(title: "c", due: .time(nineOClock), start: .day(try XCTUnwrap(Day(year: 2027, month: 3, day: 11))))
                .startsAfterItsDue(dates: dates))
        XCTAssertFalse(ToDoItem(title: "d", due: .day(day)).startsAfterItsDue(dates: dates))
    }
}
