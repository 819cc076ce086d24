import Foundation
import TestSupport
import ToDoModel
import XCTest

@testable import ToDoCore

final class TaskwarriorFormatTests: XCTestCase {
    private let export = """
        [
        {"id":1,"description":"Pay bills","due":"20220110T050000Z","entry":"20220101T120000Z","modified":"20220101T120000Z","status":"pending","uuid":"9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e51","annotations":[{"entry":"20220102T120000Z","description":"online"},{"entry":"20220103T120000Z","description":"before noon"}],"tags":["home"],"urgency":8.9},
        {"id":0,"description":"Old task","end":"20220105T120000Z","entry":"20220101T120000Z","status":"completed","uuid":"9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e52"},
        {"id":0,"description":"Gone","status":"deleted","uuid":"9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e53"},
        {"id":2,"description":"Weekly review","status":"recurring","recur":"weekly","uuid":"9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e54"},
        {"id":3,"description":"Later","status":"waiting","wait":"20300101T000000Z","uuid":"9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e55"}
        ]
        """

    func test_read_mapsTasksToItems() throws {
        let read = try ItemInterchange.read(Array(export.utf8), format: .auto, timeZone: .utc)
        XCTAssertEqual(read.format, .taskwarrior)
        let items = read.items
        XCTAssertEqual(items.map(\.item.title), ["Pay bills", "Old task", "Gone", "Weekly review", "Later"])
        XCTAssertEqual(items.map(\.origin), ["task 1", "task 2", "task 3", "task 4", "task 5"])
        XCTAssertEqual(items.map(\.ignoredBecause), [nil, nil, "deleted in Taskwarrior", nil, nil])
        XCTAssertEqual(items[3].item.repeatRule, "FREQ=WEEKLY", "a recurring template is the repeating item")
        XCTAssertEqual(items.map(\.item.done), [false, true, false, false, false])
        XCTAssertEqual(items[0].item.id.uuidString, "9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E51")
        XCTAssertEqual(items[0].item.timestamp, 1_641_790_800)
        XCTAssertEqual(items[0].item.createdAt, 1_641_038_400)
        XCTAssertNil(items[0].item.itemDescription)
        XCTAssertEqual(
            items[0].item.annotations,
            [Annotation(time: 1_641_124_800, text: "online"), Annotation(time: 1_641_211_200, text: "before noon")],
            "annotations are notes, each with its time")
        XCTAssertEqual(items[1].item.completedAt, 1_641_384_000)
    }

    /// A recurring task is one repeating item (issue 52): its pending instances without their
    /// template (`task status:pending export`) are one series, due at the earliest; a completed
    /// instance is a done item without a repeat; a template with no pending instance in the file
    /// is at the occurrence after those its mask made.
    func test_read_aRecurringTask_isOneSeries() throws {
        let parent = "aaaaaaaa-0000-4000-8000-00000000000a"
        func instance(_ number: Int, due: String, status: String = "pending") -> String {
            """
            {"uuid":"aaaaaaaa-0000-4000-8000-00000000000\(number)","description":"Stretch","status":"\(status)",\
            "recur":"daily","parent":"\(parent)","imask":\(number),"due":"\(due)"}
            """
        }
        let pending =
            "["
            + [
                instance(3, due: "20261203T050000Z"), instance(1, due: "20261201T050000Z"),
                instance(2, due: "20261202T050000Z"), instance(4, due: "20261130T050000Z", status: "completed")
            ].joined(separator: ",") + "]"
        let items = try ItemInterchange.read(Array(pending.utf8), format: .taskwarrior, timeZone: .utc).items
        XCTAssertEqual(
            items.map(\.ignoredBecause),
            [
                "another occurrence of the series of task 2, imported as its repeating item", nil,
                "another occurrence of the series of task 2, imported as its repeating item", nil
            ])
        XCTAssertEqual(items[1].item.repeatRule, "FREQ=DAILY")
        XCTAssertEqual(items[1].item.due, .time(1_796_101_200), "the earliest pending instance")
        XCTAssertTrue(items[3].item.done)
        XCTAssertNil(items[3].item.repeatRule, "a done occurrence is no series of its own")

        // The template alone, its first occurrence done and the second deleted: the third is next.
        let template = """
            [{"uuid":"\(parent)","description":"Stretch","status":"recurring","recur":"daily",\
            "due":"20261201T050000Z","mask":"+X"}]
            """
        let series = try ItemInterchange.read(Array(template.utf8), format: .taskwarrior, timeZone: .utc).items
        XCTAssertEqual(series.first?.item.due, .time(1_796_187_600 + 86_400))
    }

    /// Taskwarrior's `until` is the series' end, and goes back as `until` beside its `recur`.
    func test_aSeriesUntil_isItsRulesEnd_andGoesBack() throws {
        let template = """
            [{"uuid":"bbbbbbbb-0000-4000-8000-00000000000b","description":"Weekly","status":"recurring",\
            "recur":"weekly","due":"20261206T050000Z","until":"20270131T050000Z","mask":""}]
            """
        let read = try ItemInterchange.read(Array(template.utf8), format: .taskwarrior, timeZone: .utc)
        let item = try XCTUnwrap(read.items.first)
        XCTAssertEqual(item.item.repeatRule, "FREQ=WEEKLY;UNTIL=20270131T050000Z")
        XCTAssertEqual(item.unknownKeys, [], "read, not kept")
        let written = String(decoding: TaskwarriorFormat.write([item.item], now: Date(), timeZone: .utc), as: UTF8.self)
        XCTAssertTrue(
            written.contains(#""recur":"weekly""#) && written.contains(#""until":"20270131T050000Z""#), written)
        // A task that does not repeat keeps its `until` as it came.
        let plain = try ItemInterchange.read(
            Array(#"[{"description":"Expires","status":"pending","until":"20270131T050000Z"}]"#.utf8),
            format: .taskwarrior, timeZone: .utc)
        XCTAssertEqual(plain.items.first?.unknownKeys, ["until"])
    }

    func test_read_takesOneTaskPerLine() throws {
        let lines =
            #"{"description":"One","status":"pending","uuid":"9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e51"},"# + "\n"
            + #"{"description":"Two","status":"pending","uuid":"9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e52"}"# + "\n"
        let read = try ItemInterchange.read(Array(lines.utf8), format: .auto, timeZone: .utc)
        XCTAssertEqual(read.format, .taskwarrior)
        XCTAssertEqual(read.items.map(\.item.title), ["One", "Two"])
    }

    func test_read_theFieldsTodoHas_andKeepsTheRest() throws {
        let text =
            #"[{"description":"Mow","status":"pending","uuid":"9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e51","entry":"1234567889","#
            + #""due":"2030-01-15T17:00:00Z","wait":"20300110T000000Z","priority":"H","tags":["garden","home"],"recur":"2wk","#
            + #""project":"Home.Garden","depends":["9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e52"],"estimate":3}]"#
        let item = try XCTUnwrap(ItemInterchange.read(Array(text.utf8), format: .auto, timeZone: .utc).items.first)
        XCTAssertEqual(item.item.createdAt, 1_234_567_889, "epoch seconds, as task import reads them")
        XCTAssertEqual(item.item.due, .time(1_894_726_800))
        XCTAssertEqual(item.item.start, .day(2030, 1, 10), "a local midnight is the day, as Taskwarrior keeps one")
        XCTAssertEqual(item.item.priority, 1)
        XCTAssertEqual(item.item.tags, ["garden", "home"])
        XCTAssertEqual(item.item.repeatRule, "FREQ=WEEKLY;INTERVAL=2")
        XCTAssertEqual(item.item.project, "Home.Garden", "a project is a field")
        XCTAssertEqual(item.unknownKeys, ["depends", "estimate"])
        XCTAssertEqual(item.item.foreignMembers.members(from: "taskwarrior").keys, ["depends", "estimate"])
        XCTAssertTrue(item.item.unknownMembers.isEmpty, "kept apart from todo's own keys")
        XCTAssertTrue(item.problems.isEmpty)
        XCTAssertEqual(
            ["daily", "weekdays", "monthly", "quarterly", "3d", "P1W", "1y", "annual"].map(
                TaskwarriorFormat.rule(ofRecurrence:)),
            [
                "FREQ=DAILY", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "FREQ=MONTHLY", "FREQ=MONTHLY;INTERVAL=3",
                "FREQ=DAILY;INTERVAL=3",
                "FREQ=WEEKLY", "FREQ=YEARLY", "FREQ=YEARLY"
            ])
        // An instance of a recurring task whose template is in the source is one occurrence: its
        // recur stays Taskwarrior's, and its template's uuid (Taskwarrior's `parent`, not todo's).
        let template =
            #"{"description":"Review","status":"recurring","recur":"weekly","uuid":"9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e54","due":"20300107T090000Z"}"#
        let instance =
            #"{"description":"Review","status":"completed","recur":"weekly","parent":"9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e54","imask":3,"due":"20300107T090000Z"}"#
        let occurrence = try XCTUnwrap(
            ItemInterchange.read(Array("[\(template),\(instance)]".utf8), format: .auto, timeZone: .utc).items.last)
        XCTAssertNil(occurrence.item.repeatRule)
        XCTAssertEqual(occurrence.item.foreignMembers.members(from: "taskwarrior").keys, ["recur", "parent", "imask"])
        XCTAssertNil(occurrence.item.parent)
        XCTAssertEqual(occurrence.unknownKeys, ["imask", "parent"])
        // Without its template (`task status:pending export`, the usual way to move), the instance
        // is the series: it repeats by its recur, and is tied to no template.
        let alone =
            #"[{"description":"Review","status":"pending","recur":"weekly","parent":"9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e54","imask":3,"due":"20300107T090000Z"}]"#
        let series = try XCTUnwrap(ItemInterchange.read(Array(alone.utf8), format: .auto, timeZone: .utc).items.first)
        XCTAssertNil(series.ignoredBecause)
        XCTAssertEqual(series.item.repeatRule, "FREQ=WEEKLY")
        XCTAssertEqual(series.item.due, .time(1_894_006_800))
        XCTAssertTrue(series.item.foreignMembers.members(from: "taskwarrior").keys.isEmpty)
        XCTAssertEqual(series.unknownKeys, [])
    }

    /// A value todo cannot read is a problem of its task: kept as it was, the rest imported.
    func test_read_aValueTodoCannotRead_isAProblemOfItsTask() throws {
        let cases: [(String, String)] = [
            (#"[{"description":"a","uuid":"nope"}]"#, "task 1, uuid: 'nope' is not a UUID; kept as it was"),
            (
                #"[{"description":"a","due":"tomorrow"}]"#,
                "task 1, due: 'tomorrow' is not a date (expected 20231110T230000Z or epoch seconds); kept as it was"
            ),
            (
                #"[{"description":"a","annotations":[1]}]"#,
                "task 1, annotations: expected an array of objects with a one-line description; kept as it was"
            ),
            (#"[{"description":"a","priority":"X"}]"#, "task 1, priority: 'X' is not H, M or L; kept as it was"),
            (
                #"[{"description":"a","recur":"sometimes"}]"#,
                "task 1, recur: 'sometimes' is not a repeat todo reads (daily, weekly, 2w, …); kept as it was"
            ),
            (#"[{"description":"a","entry":7}]"#, "task 1, entry: expected a string, found a number; kept as it was")
        ]
        for (text, problem) in cases {
            let item = try XCTUnwrap(
                ItemInterchange.read(Array(text.utf8), format: .taskwarrior, timeZone: .utc).items.first, text)
            XCTAssertEqual(item.problems, [problem], text)
            XCTAssertEqual(item.item.title, "a", text)
            XCTAssertNil(item.ignoredBecause, text)
        }
        let untitled = try ItemInterchange.read(
            Array(#"[{"description":"a"},{"status":"pending"}]"#.utf8), format: .taskwarrior, timeZone: .utc
        ).items
        XCTAssertEqual(untitled[1].ignoredBecause, "the task has no description")
        XCTAssertEqual(untitled[1].problems, ["task 2: the task has no description; skipped"])
    }

    /// From Taskwarrior's own import tests: one task written over several lines, a date without a
    /// `Z` (local time, as `task import` reads it), and `depends` as the subtasks todo has.
    func test_read_aTaskOverSeveralLines_localDates_andDependsAsSubtasks() throws {
        let spread =
            "\n{\n\"uuid\"\n:\n\t\t\"55555555-5555-5555-5555-555555555555\"\n,\n\"description\"\n:\n\"four\"\n,\n    \"status\"\n    :\n"
            + "    \"pending\"\n    ,\n\"entry\"\n:\n\"20151018T144200\"\n}\n"
        let berlin = TimeZoneRules(TimeZone(identifier: "Europe/Berlin")!)
        let one = try ItemInterchange.read(Array(spread.utf8), format: .taskwarrior, timeZone: berlin).items
        XCTAssertEqual(one.map(\.item.title), ["four"])
        XCTAssertEqual(one.first?.item.createdAt, 1_445_172_120, "14:42 in Berlin")
        XCTAssertEqual(one.first?.problems, [])

        let tasks = """
            [{"uuid":"a0000000-a000-a000-a000-a00000000000","description":"zero","status":"pending","project":"A","depends":"a1111111-a111-a111-a111-a11111111111,a2222222-a222-a222-a222-a22222222222"},
            {"uuid":"a1111111-a111-a111-a111-a11111111111","description":"one","status":"pending"},
            {"uuid":"a2222222-a222-a222-a222-a22222222222","description":"two","status":"pending","depends":["a0000000-a000-a000-a000-a00000000000"]}]
            """
        let items = try ItemInterchange.read(Array(tasks.utf8), format: .taskwarrior, timeZone: berlin).items
        let zero = items[0].item.id
        XCTAssertEqual(items.map(\.item.parent), [nil, zero, zero], "a cycle (two depends on zero) is not made")
        XCTAssertEqual(items[0].unknownKeys, [], "depends has a field: the subtasks; project is one")
        XCTAssertEqual(items[0].item.project, "A")
        XCTAssertEqual(
            items[2].problems,
            [
                #"task 3 "two" depends on task 1 "zero", which depends on it: todo keeps this dependency for the export to Taskwarrior, not as a subtask"#
            ])
        // Exported, a parent depends on its subtasks, and what the import kept stays as it was.
        var manager = ItemManager()
        _ = try manager.importItems(items)
        let written = try JSONValue(
            parsing: TaskwarriorFormat.write(manager.toDoItems, now: Date(timeIntervalSince1970: 0), timeZone: berlin))
        guard case .array(let exported) = written, case .object(let first) = exported[0],
            case .object(let third) = exported[2]
        else {
            return XCTFail("\(written)")
        }
        XCTAssertEqual(
            first["depends"],
            .array([.string("a1111111-a111-a111-a111-a11111111111"), .string("a2222222-a222-a222-a222-a22222222222")]))
        XCTAssertEqual(third["depends"], .array([.string("a0000000-a000-a000-a000-a00000000000")]))
        // A subtask made in todo is a dependency of its parent.
        var three = ToDoItem(title: "three")
        three.parent = manager.toDoItems[1].id
        let child = try manager.add(three)
        let again = try JSONValue(
            parsing: TaskwarriorFormat.write(manager.toDoItems, now: Date(timeIntervalSince1970: 0), timeZone: berlin))
        guard case .array(let list) = again, case .object(let one2) = list[1] else { return XCTFail("\(again)") }
        XCTAssertEqual(one2["depends"], .array([.string(child.id.uuidString.lowercased())]))
    }

    func test_read_aSourceThatIsNotTasks_isRefusedWhole() {
        let cases: [(String, ImportError)] = [
            ("[3]", ImportError(at: "task 1", "expected a task object, found a number")),
            (
                #"{"description":"a"}"# + "\n{oops\n",
                ImportError(at: "line 2", "not JSON: unexpected 'o', expected a string key at column 2")
            )
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try ItemInterchange.read(Array(text.utf8), format: .taskwarrior, timeZone: .utc).items)
            { error in
                XCTAssertEqual(error as? ImportError, expected, text)
            }
        }
    }

    /// A calendar's series anchored on its start alone (DTSTART, no DUE) goes to Taskwarrior due
    /// then, with its recur: `task import` refuses a recur without a due, and the whole file with it.
    func test_write_aSeriesWithAStartAndNoDue_goesOutDueAtItsStart() throws {
        let item = ToDoItem(
            id: UUID(uuidString: "9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E53")!, title: "Water", start: .day(2030, 1, 7),
            repeatRule: "FREQ=WEEKLY")
        let text = String(
            decoding: TaskwarriorFormat.write([item], now: Date(timeIntervalSince1970: 1_700_000_000), timeZone: .utc),
            as: UTF8.self)
        XCTAssertEqual(
            text,
            """
            [
            {"uuid":"9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e53","description":"Water","status":"pending","due":"20300107T000000Z","recur":"weekly"}
            ]

            """)
        let plain = ToDoItem(id: item.id, title: "Water", start: .day(2030, 1, 7))
        XCTAssertTrue(
            String(decoding: TaskwarriorFormat.write([plain], now: Date(), timeZone: .utc), as: UTF8.self).contains(
                #""wait":"20300107T000000Z""#),
            "without a repeat, a start is Taskwarrior's wait")
    }

    func test_write_isWhatTaskImportReads_andGivesBackWhatAnImportKept() throws {
        let source =
            #"[{"description":"Mow 😂","status":"pending","uuid":"9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e51","entry":"20220101T120000Z","#
            + #""due":"20300115T220000Z","priority":"M","tags":["garden"],"recur":"weekdays","project":"Home.Garden","estimate":3,"#
            + #""annotations":[{"entry":"20220102T120000Z","description":"front"},{"entry":"20220102T120000Z","description":"back"}]}]"#
        let item = try XCTUnwrap(
            ItemInterchange.read(Array(source.utf8), format: .auto, timeZone: .utc).items.first?.item)
        var done = ToDoItem(
            title: "Old", id: UUID(uuidString: "9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E52")!, start: .time(1_900_000_000))
        done.done = true
        done.completedAt = 1_641_384_000
        let text = String(
            decoding: TaskwarriorFormat.write(
                [item, done], now: Date(timeIntervalSince1970: 1_700_000_000), timeZone: .utc), as: UTF8.self)
        XCTAssertEqual(
            text,
            """
            [
            {"uuid":"9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e51","description":"Mow 😂","status":"pending","entry":"20220101T120000Z","due":"20300115T220000Z","priority":"M","project":"Home.Garden","tags":["garden"],"recur":"weekdays","annotations":[{"entry":"20220102T120000Z","description":"front"},{"entry":"20220102T120000Z","description":"back"}],"estimate":3},
            {"uuid":"9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e52","description":"Old","status":"completed","end":"20220105T120000Z","wait":"20300317T174640Z"}
            ]

            """)
    }
}
