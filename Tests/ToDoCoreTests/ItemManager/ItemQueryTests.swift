import Foundation
import TestSupport
import ToDoModel
import ToDoStorage
import XCTest

@testable import ToDoCore

final class ItemQueryTests: XCTestCase {
    private let zone = TimeZone(identifier: "America/New_York")!
    /// Sunday 22 November 2026, 10:30 in New York.
    private let now = Date(timeIntervalSince1970: 1_795_361_400)
    private var manager = ItemManager()

    override func setUpWithError() throws {
        let clock = TickingClock()
        manager = ItemManager(now: { clock.tick() })
        try manager.add(ToDoItem(title: "Call Mom", timestamp: 1_641_790_800)) // 1, 01/10/22
        try manager.add(ToDoItem(title: "buy milk", itemDescription: "Oat, not cow")) // 2
        // 3, 06/14/30 19:00
        try manager.add(ToDoItem(title: "Water", timestamp: 1_907_708_400, location: Location(name: "Garden")))
        try manager.add(
            ToDoItem(
                title: "apples", timestamp: 1_907_640_000, // 4, 06/14/30
                location: Location(name: "Market", address: "12 Orchard Road")))
        try manager.add(ToDoItem(title: "Item 10", timestamp: 1_795_323_600)) // 5, 11/22/26 (today)
        try manager.add(ToDoItem(title: "Item 9", timestamp: 1_795_237_200)) // 6, 11/21/26 (yesterday)
        _ = try manager.checkItem(withID: manager.toDoItems[1].id)
        _ = try manager.checkItem(withID: manager.toDoItems[4].id)
        // Created in reverse for the last two open items: created order differs from number order.
        manager = try ItemManager(
            storedItems: manager.toDoItems.enumerated().map { index, item in
                var item = item
                if index >= 2 { item.createdAt = 2_000 - Double(index) }
                return item
            } + manager.doneItems)
    }

    private func numbers(_ configure: (inout ItemQuery) -> Void) -> String {
        var query = ItemQuery()
        configure(&query)
        let (open, done) = query.apply(
            open: manager.toDoItems, done: manager.doneItems, now: now,
            dates: DueDateFormatter(timeZone: zone))
        return open.map { "\($0.number)" }.joined(separator: " ") + " | "
            + done.map { "\($0.number)" }.joined(separator: " ")
    }

    private func span(_ text: String) throws -> Range<Double> {
        try DueDateParser(now: now, timeZone: zone).span(text)
    }

    /// A timed due earlier today has passed: `--overdue` keeps it, the agenda puts it under
    /// Overdue; a whole day is overdue only once it is over. A whole day means "by the end of the
    /// day": sorted by due, it comes after that day's timed dues.
    func test_aTimePassedToday_isOverdue_andAWholeDaySortsAfterItsDaysTimes() throws {
        let dates = DueDateFormatter(timeZone: zone)
        var today = ItemManager()
        // 10:30 now: 01:00 today has passed, 18:00 today has not, today as a day has not.
        try today.add(ToDoItem(title: "Early", timestamp: 1_795_323_600 + 3_600)) // 1, 11/22/26 01:00
        // 2, 11/22/26
        try today.add(ToDoItem(title: "Today", due: .day(Day(of: 1_795_330_000, in: TimeZoneRules(zone)))))
        try today.add(ToDoItem(title: "Evening", timestamp: 1_795_323_600 + 18 * 3_600)) // 3, 11/22/26 18:00
        try today.add(ToDoItem(title: "Yesterday", timestamp: 1_795_237_200)) // 4, 11/21/26
        var query = ItemQuery()
        query.overdue = true
        XCTAssertEqual(query.apply(open: today.toDoItems, done: [], now: now, dates: dates).open.map(\.number), [1, 4])
        query = ItemQuery()
        query.sort = .due
        XCTAssertEqual(
            query.apply(open: today.toDoItems, done: [], now: now, dates: dates).open.map(\.number), [4, 1, 3, 2])
        let groups = Agenda.groups(today.openStored.array, days: 7, now: now, dates: dates)
        XCTAssertEqual(groups.map { $0.items.map(\.number) }, [[4, 1], [3, 2]])
        XCTAssertEqual(groups.first?.when, .overdue)
    }

    /// The agenda's groups and order, made from many items at once (in two halves past
    /// `Parallelism.itemsInTwoHalvesMinimumCount`, sorted by bytes of their dues), are those
    /// of comparing each due's `DueSortKey` and asking each due `isOverdue` and `daysFrom`: with
    /// days from the year 1 to 9999, times with fractions, days and times at one moment, and many
    /// items sharing a due (list order among them).
    func test_theAgendasGroups_areThoseOfComparingEachDue() throws {
        let dates = DueDateFormatter(timeZone: zone)
        var random = SeededGenerator(seed: 0xA6E4DA)
        let today = Day(of: now.timeIntervalSince1970, in: TimeZoneRules(zone))
        for count in [0, 1, 7, 300, Parallelism.itemsInTwoHalvesMinimumCount + 1, 5_000] {
            let items = (0..<count).map { index -> StoredItem in
                let due: ItemDate?
                switch Int.random(in: 0..<8, using: &random) {
                case 0: due = nil
                case 1: due = Day(number: Int.random(in: -719_162...2_932_896, using: &random)).map(ItemDate.day)
                case 2: due = Day(number: today.number + Int.random(in: -3...12, using: &random)).map(ItemDate.day)
                case 3:
                    due = .time(
                        now.timeIntervalSince1970 + Double(Int.random(in: -200_000...1_200_000, using: &random)))
                case 4:
                    due = .time(
                        now.timeIntervalSince1970 + Double(Int.random(in: -9...9, using: &random)) * 3_600 + 0.25)
                // The first moment of a day near today: the moment a whole day before it sorts at.
                case 5:
                    due = .time(
                        dates.moment(of: .day(Day(number: today.number + Int.random(in: -2...8, using: &random))!)))
                case 6: due = .time(Double(Int.random(in: -62_000_000_000...250_000_000_000, using: &random)) / 4)
                default: due = .time(now.timeIntervalSince1970 + 7_200)
                }
                return StoredItem(ToDoItem(id: UUID(), number: index + 1, title: "Item \(index)", due: due))
            }
            let dues = items.map(\.due), keys = dues.map { $0.map(dates.sortKey(of:)) }
            for days in [7, 1, 0, -3] {
                // As each due compares: by key, then list order; then dealt out in that order.
                let dated = items.indices.filter { dues[$0] != nil }.sorted { (keys[$0]!, $0) < (keys[$1]!, $1) }
                var overdue: [Int] = [], later: [Int] = [], byDay: [Int: (day: Day, indices: [Int])] = [:]
                for index in dated {
                    let due = dues[index]!, ahead = dates.daysFrom(now, to: due)
                    if dates.isOverdue(due, now: now) {
                        overdue.append(index)
                    } else if ahead < days {
                        byDay[ahead, default: (due.day(in: dates.rules), [])].indices.append(index)
                    } else {
                        later.append(index)
                    }
                }
                let expected =
                    [(Agenda.When.overdue, overdue)]
                    + byDay.keys.sorted().map {
                        (Agenda.When.day(byDay[$0]!.day, daysFromToday: $0), byDay[$0]!.indices)
                    }
                    + [(.later, later), (.undated, items.indices.filter { dues[$0] == nil })]
                let groups = Agenda.groups(items, days: days, now: now, dates: dates)
                XCTAssertEqual(
                    groups.map(\.when), expected.filter { !$0.1.isEmpty }.map(\.0), "\(count) items, \(days) days")
                XCTAssertEqual(
                    groups.map { $0.items.map(\.number) },
                    expected.filter { !$0.1.isEmpty }.map { $0.1.map { $0 + 1 } },
                    "\(count) items, \(days) days")
            }
        }
    }

    func test_anEmptyQuery_keepsTheBooksOrder() {
        XCTAssertEqual(numbers { _ in }, "1 3 4 5 | 2 6")
    }

    func test_search_ignoresCase_inTitleDescriptionAndPlace() {
        XCTAssertEqual(numbers { $0.search = "MILK" }, " | 2")
        XCTAssertEqual(numbers { $0.search = "oat" }, " | 2")
        XCTAssertEqual(numbers { $0.search = "garden" }, "3 | ")
        XCTAssertEqual(numbers { $0.search = "orchard" }, "4 | ")
        XCTAssertEqual(numbers { $0.search = "nothing" }, " | ")
    }

    func test_dueFilters_compareWholeDaysOrMinutes() throws {
        XCTAssertEqual(numbers { $0.dueBefore = try! span("2030-06-14").lowerBound }, "1 5 | 6")
        XCTAssertEqual(numbers { $0.dueFrom = try! span("2030-06-13").upperBound }, "3 4 | ")
        XCTAssertEqual(numbers { $0.dueFrom = try! span("2030-06-14").upperBound }, " | ")
        XCTAssertEqual(numbers { $0.dueFrom = try! span("2030-06-14 18:59").upperBound }, "3 | ")
        XCTAssertEqual(numbers { $0.dueFrom = try! span("2030-06-14 19:00").upperBound }, " | ")
        XCTAssertEqual(try span("2022-01-10"), 1_641_790_800..<1_641_877_200)
        XCTAssertEqual(try span("2022-03-13"), 1_647_147_600..<1_647_230_400, "a day of 23 hours")
    }

    func test_overdueAndNoDue() {
        XCTAssertEqual(numbers { $0.overdue = true }, "1 5 | ", "open items only; today's 00:00 has passed at 10:30")
        XCTAssertEqual(numbers { $0.noDue = true }, " | 2")
    }

    func test_sort_eachSectionStably_withItemsLackingTheKeyLast_andReverse() {
        XCTAssertEqual(numbers { $0.sort = .due }, "1 5 4 3 | 6 2")
        XCTAssertEqual(
            numbers {
                $0.sort = .due; $0.reverse = true
            }, "3 4 5 1 | 6 2", "undated items stay last")
        XCTAssertEqual(numbers { $0.sort = .title }, "4 1 5 3 | 2 6")
        XCTAssertEqual(
            numbers {
                $0.sort = .number; $0.reverse = true
            }, "5 4 3 1 | 6 2")
        XCTAssertEqual(numbers { $0.sort = .created }, "1 3 5 4 | 2 6")
        XCTAssertEqual(numbers { $0.reverse = true }, "5 4 3 1 | 6 2")
    }

    func test_limit_takesOpenItemsFirst() {
        XCTAssertEqual(numbers { $0.limit = 2 }, "1 3 | ")
        XCTAssertEqual(numbers { $0.limit = 5 }, "1 3 4 5 | 2")
        XCTAssertEqual(numbers { $0.limit = 0 }, " | ")
        XCTAssertEqual(
            numbers {
                $0.sort = .due; $0.limit = 2; $0.search = "i"
            }, "5 | 6")
    }

    /// An item waits while its start date is after today where the user is; from its day on, it does not.
    func test_anItemWaits_untilItsStartDay() {
        let dates = DueDateFormatter(timeZone: zone)
        var item = ToDoItem(title: "Later")
        XCTAssertFalse(item.waitsForItsStart(now: now, dates: dates), "no start")
        item.start = .time(1_795_410_000) // Monday 23 November 2026, 00:00 in New York
        XCTAssertTrue(item.waitsForItsStart(now: now, dates: dates))
        item.start = .time(1_795_323_600) // today, 00:00
        XCTAssertFalse(item.waitsForItsStart(now: now, dates: dates))
        item.start = .time(1_795_400_000) // today, 21:13: still today
        XCTAssertFalse(item.waitsForItsStart(now: now, dates: dates))
    }

    /// The list's own view sets waiting items aside and keeps the others' places, in order; when
    /// none waits it keeps every place (`nil`), without listing them.
    func test_theListsOwnView_setsWaitingItemsAside_keepingTheOthersPlaces() {
        let dates = DueDateFormatter(timeZone: zone)
        let tomorrow = ItemDate.time(1_795_410_000), today = ItemDate.time(1_795_323_600)
        let items = [("a", nil), ("b", tomorrow), ("c", today), ("d", tomorrow), ("e", nil)].map { title, start in
            var item = ToDoItem(title: title)
            item.start = start
            return StoredItem(item)
        }
        let (waiting, shown) = ItemQuery.settingAsideWaiting(in: items, now: now, dates: dates)
        XCTAssertEqual(waiting.map(\.title), ["b", "d"])
        XCTAssertEqual(shown, [0, 2, 4])
        let none = ItemQuery.settingAsideWaiting(in: [items[0], items[2]], now: now, dates: dates)
        XCTAssertEqual(none.waiting.count, 0)
        XCTAssertNil(none.shown)
    }
}

/// A clock that moves on a second each time it is asked.
private final class TickingClock: @unchecked Sendable {
    private var seconds = 1_000.0
    func tick() -> Date {
        seconds += 1
        return Date(timeIntervalSince1970: seconds)
    }
}
