import Foundation
import TestSupport
import ToDoModel
import XCTest

@testable import ToDoCore

final class TodoTxtFormatTests: XCTestCase {
    private let newYork = TimeZoneRules(TimeZone(identifier: "America/New_York")!)

    func test_write_putsDoneMarksDatesAndTodosFieldsAsTags() throws {
        var manager = ItemManager(now: { Date(timeIntervalSince1970: 1_641_790_800) })
        let ids = (1...3).map { UUID(uuidString: "9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5\($0)")! }
        try manager.add(ToDoItem(title: "Call Mom +family", due: .day(2022, 1, 10), id: ids[0]))
        try manager.add(
            ToDoItem(
                title: "Water", itemDescription: "Twice a week, 50% more", timestamp: 1_907_708_400,
                location: Location(
                    name: "Garden shed", address: "1 Main St", coordinate: Coordinate(latitude: 1.5, longitude: -2)),
                id: ids[1]))
        try manager.add(ToDoItem(title: "Old", id: ids[2]))
        _ = try manager.checkItem(withID: ids[0])
        XCTAssertEqual(
            TodoTxtFormat.write(manager.toDoItems + manager.doneItems, timeZone: newYork),
            """
            2022-01-10 Water due:2030-06-14T19:00 desc:Twice%20a%20week,%2050%25%20more loc:Garden%20shed addr:1%20Main%20St geo:1.5,-2 id:\(ids[1].uuidString)
            2022-01-10 Old id:\(ids[2].uuidString)
            x 2022-01-10 2022-01-10 Call Mom +family due:2022-01-10 id:\(ids[0].uuidString)

            """)
    }

    func test_read_takesOtherTodoTxtFiles() throws {
        let text =
            "(A) 2022-01-09 Call Mom @phone +family due:2022-01-10 rec:1w\r\n\r\nx 2022-01-11 2022-01-01 Pay rent pri:B\nx Done without dates\nPlain line with url http://example.com\t \n(K) Later t:2022-02-01\n"
        let items = try TodoTxtFormat.read(text, timeZone: newYork)
        XCTAssertEqual(items.map(\.origin), ["line 1", "line 3", "line 4", "line 5", "line 6"])
        XCTAssertEqual(
            items.map(\.item.title),
            [
                "Call Mom @phone +family", "Pay rent", "Done without dates", "Plain line with url http://example.com",
                "Later"
            ],
            "a context and a project stay words of the title (issue 52)")
        XCTAssertEqual(items[0].item.tags, ["@phone", "family"], "a context and a project are tags")
        XCTAssertEqual(items.map(\.item.done), [false, true, true, false, false])
        XCTAssertEqual(
            items.map(\.item.priority), [1, 2, nil, nil, 9],
            "(A) to (I) are 1 to 9; a done line's pri:B; (K) is 9, its letter kept")
        XCTAssertEqual(
            TodoTxtFormat.write([items[4].item], timeZone: newYork),
            "(K) Later t:2022-02-01 id:\(items[4].item.id.uuidString)\n")
        XCTAssertEqual(items[0].item.due, .day(2022, 1, 10))
        XCTAssertEqual(items[0].item.repeatRule, "FREQ=WEEKLY")
        XCTAssertEqual(items[0].item.createdAt, 1_641_704_400)
        XCTAssertEqual(items[1].item.completedAt, 1_641_877_200)
        XCTAssertEqual(items[1].item.createdAt, 1_641_013_200)
        XCTAssertNil(items[2].item.completedAt)
        XCTAssertNil(items[2].item.createdAt, "a creation date is never made up")
        XCTAssertEqual(items[4].item.start, .day(2022, 2, 1))
        XCTAssertTrue(items.allSatisfy { $0.problems.isEmpty && $0.idIsDerived })
    }

    /// What other tools write, read as they read it: topydo's ids, Simpletask's impossible date,
    /// rec: forms.
    func test_read_othersTagsAndImpossibleDates_asText() throws {
        let items = try TodoTxtFormat.read(
            "Blocked task id:1\nChild task p:1\nx 2012-14-11 rec:12w mail@example.com\nA h:1 rec:+2d\nB rec:1b\n",
            timeZone: newYork)
        // Another tool's key:value words are kept out of the title and given back; todo's own id
        // then goes as uuid:, not a second id:.
        XCTAssertEqual(items.map(\.item.title), ["Blocked task", "Child task", "2012-14-11 mail@example.com", "A", "B"])
        XCTAssertEqual(
            items.map(\.item.repeatRule),
            [nil, nil, "FREQ=WEEKLY;INTERVAL=12", "FREQ=DAILY;INTERVAL=2", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"])
        XCTAssertTrue(items[2].item.done)
        XCTAssertTrue(items.allSatisfy { $0.problems.isEmpty })
        let written = TodoTxtFormat.write(items.map(\.item), timeZone: newYork).split(separator: "\n").map {
            $0.split(separator: " ").dropLast().joined(separator: " ")
        }
        // Each line as it came, todo's id after it.
        XCTAssertEqual(
            written,
            [
                "Blocked task id:1", "Child task p:1", "x 2012-14-11 rec:12w mail@example.com", "A h:1 rec:+2d",
                "B rec:1b"
            ])
        XCTAssertTrue(
            TodoTxtFormat.write([items[0].item], timeZone: newYork).hasSuffix(
                " id:1 uuid:\(items[0].item.id.uuidString)\n"))
        let back = try TodoTxtFormat.read(TodoTxtFormat.write(items.map(\.item), timeZone: newYork), timeZone: newYork)
        XCTAssertEqual(back.map(\.item.id), items.map(\.item.id), "the uuid: names the item")
    }

    /// A value todo cannot read is a problem of its line: the word stays in the title, the rest is read.
    func test_read_aValueTodoCannotRead_isAProblemOfItsLine_keptInTheTitle() throws {
        let cases: [(String, String, String)] = [
            (
                "Buy milk due:2022-13-01 +shop\n", "Buy milk due:2022-13-01 +shop",
                "line 1: 'due:2022-13-01' is not a date or time (expected YYYY-MM-DD or YYYY-MM-DDThh:mm); kept in the title"
            ),
            (
                "Buy due:tomorrow\n", "Buy due:tomorrow",
                "line 1: 'due:tomorrow' is not a date or time (expected YYYY-MM-DD or YYYY-MM-DDThh:mm); kept in the title"
            ),
            (
                "Buy geo:91,0\n", "Buy geo:91,0",
                "line 1: 'geo:91,0' is not a coordinate (expected geo:LAT,LON); kept in the title"
            ),
            ("Buy desc:%ZZ\n", "Buy desc:%ZZ", "line 1: 'desc:%ZZ' is not percent-encoded text; kept in the title"),
            (
                "Buy rec:often\n", "Buy rec:often",
                "line 1: 'rec:often' is not a repeat (expected rec:1d, 2w, 1m, 1y or 1b); kept in the title"
            )
        ]
        for (text, title, problem) in cases {
            let item = try XCTUnwrap(TodoTxtFormat.read(text, timeZone: newYork).first)
            XCTAssertEqual(item.item.title, title, text)
            XCTAssertEqual(item.problems, [problem], text)
            XCTAssertNil(item.ignoredBecause, text)
        }
        let untitled = try XCTUnwrap(TodoTxtFormat.read("ok\nx 2022-01-10 due:2022-01-11\n", timeZone: newYork).last)
        XCTAssertEqual(untitled.ignoredBecause, "the line has no title")
        XCTAssertEqual(untitled.problems, ["line 2: the line has no title; skipped"])
        // An empty description or place is none (todo's own export of one, before).
        let empty = try XCTUnwrap(TodoTxtFormat.read("Buy desc: loc:\n", timeZone: newYork).first)
        XCTAssertEqual(empty.item.title, "Buy")
        XCTAssertNil(empty.item.itemDescription)
        XCTAssertNil(empty.item.location)
    }

    /// The organising fields go out and come back; a time the clocks show twice carries its offset.
    func test_writeAndRead_keepTheOrganisingFields_andTheHourTheClocksRepeat() throws {
        let berlin = TimeZoneRules(TimeZone(identifier: "Europe/Berlin")!)
        // 02:30 on 27 October 2030 in Berlin, the second time (CET, +01:00).
        let secondHalfPast2 = 1_919_295_000.0
        var item = ToDoItem(
            title: "Night shift", timestamp: secondHalfPast2, priority: 5, tags: ["work", "Pflanzen"],
            repeatRule: "FREQ=MONTHLY;BYDAY=-1FR")
        item.parent = UUID(uuidString: "11111111-2222-4333-8444-555555555555")
        let line = TodoTxtFormat.write([item], timeZone: berlin)
        XCTAssertEqual(
            line,
            "(E) Night shift due:2030-10-27T02:30+01:00 rrule:FREQ=MONTHLY;BYDAY=-1FR +work +Pflanzen"
                + " parent:11111111-2222-4333-8444-555555555555 id:\(item.id.uuidString)\n")
        let read = try XCTUnwrap(TodoTxtFormat.read(line, timeZone: berlin).first?.item)
        XCTAssertEqual(read.due, .time(secondHalfPast2))
        XCTAssertEqual(read.priority, 5)
        XCTAssertEqual(read.tags, ["work", "Pflanzen"])
        XCTAssertEqual(read.repeatRule, "FREQ=MONTHLY;BYDAY=-1FR")
        XCTAssertEqual(read.parent, item.parent)
        // The line is read whole: the tags stay words of the title as well (a list shows them once).
        XCTAssertEqual(read.title, "Night shift +work +Pflanzen")
        XCTAssertEqual(TodoTxtFormat.write([read], timeZone: berlin), line, "and go out again once")
        XCTAssertEqual(
            TodoTxtFormat.write(
                [ToDoItem(title: "W", timestamp: 1_900_000_000, repeatRule: "FREQ=WEEKLY;INTERVAL=2")], timeZone: berlin
            )
            .split(separator: " ").dropFirst(2).first, "rec:+2w", "todo repeats from the due: todo.txt's strict +")
        // A tag: written by earlier versions is still read.
        XCTAssertEqual(try TodoTxtFormat.read("T tag:home\n", timeZone: berlin).first?.item.tags, ["home"])
    }

    /// todo.txt's own words come back as they were (issue 32): a strict `rec:+1m` and a lax
    /// `rec:1m`, a hidden `h:1`, every priority letter, and a done item's creation date.
    func test_roundTrip_givesBackTodoTxtsOwnWords() throws {
        let text =
            [
                "(B) 2026-01-02 Strict rec:+1m due:2026-02-01", "Lax rec:1m due:2026-02-01", "Hidden h:1 +proj @ctx",
                "(Q) Late letter", "(J) Early letter", "x 2026-03-01 2026-01-01 Done with both dates pri:Z"
            ]
            .joined(separator: "\n") + "\n"
        let items = try TodoTxtFormat.read(text, timeZone: newYork).map(\.item)
        XCTAssertEqual(
            items.map(\.title),
            ["Strict", "Lax", "Hidden +proj @ctx", "Late letter", "Early letter", "Done with both dates"])
        XCTAssertEqual(items.map(\.priority), [2, nil, nil, 9, 9, 9])
        XCTAssertEqual(items[5].createdAt, 1_767_243_600)
        let lines = TodoTxtFormat.write(items, timeZone: newYork).split(separator: "\n").map {
            $0.split(separator: " ").dropLast().joined(separator: " ")
        }
        // Each line as it came (issue 52), todo's id after it.
        XCTAssertEqual(lines, text.split(separator: "\n").map(String.init))
        // Once changed, an item is written by todo's layout, its tags once.
        var edited = items[2]
        edited.title = "Hidden +proj @ctx again"
        XCTAssertEqual(
            TodoTxtFormat.write([edited], timeZone: newYork), "Hidden +proj @ctx again h:1 id:\(edited.id.uuidString)\n"
        )
        // A letter after I is 9 and sorts after I, in its order.
        var manager = ItemManager()
        _ = try manager.importItems(try TodoTxtFormat.read(text, timeZone: newYork))
        var query = ItemQuery()
        query.sort = .priority
        XCTAssertEqual(
            query.apply(open: manager.toDoItems, done: [], now: Date(), dates: DueDateFormatter(rules: newYork)).open
                .map(\.title),
            ["Strict", "Early letter", "Late letter", "Lax", "Hidden +proj @ctx"])
    }
}
