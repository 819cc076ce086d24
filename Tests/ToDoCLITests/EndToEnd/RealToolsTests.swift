import Foundation
import TestSupport
import ToDoCore
import ToDoModel
import ToDoStorage
import XCTest

/// todo's exports read by the real programs people move between, and those programs' files read
/// back: Taskwarrior (`task`), todo.txt-cli (`todo.sh`, Debian's `todo-txt`) and Python's
/// icalendar (in the virtual environment `.ci/run` makes, `.build/ical-venv`). A test whose tool is
/// missing says so and skips; `.ci/run` installs them.
final class RealToolsTests: BinaryTestCase {
    override var timeZone: String { "America/New_York" }

    /// What `addList` gives, read back from a neighbour's file.
    private static let theListBack = """
        1 [ ] H Mow the lawn 😂 +garden +home  01/15/30 17:00 ↻
        2 [ ] L Read a book                    03/01/30
        3 [ ]   Call Mom @phone +family        01/10/30

        Done
        4 [x]   Old chore

        """

    /// A list with every kind of field a neighbour has a place for.
    private func addList() throws {
        for arguments in [
            [
                "add", "Mow the lawn 😂", "--due", "2030-01-15 17:00", "--priority", "H", "--tag", "garden", "--tag",
                "home",
                "--repeat", "every 2 weeks", "--description", "line one\nline two"
            ],
            ["add", "Read a book", "--start", "2030-02-01", "--priority", "low", "--due", "2030-03-01"],
            // In the order every neighbour keeps them (Taskwarrior sorts tags).
            ["add", "Call Mom", "@phone", "+family", "--due", "2030-01-10"],
            ["add", "Old chore"]
        ] { XCTAssertEqual(try todo.run(arguments).status, 0, "\(arguments)") }
        XCTAssertEqual(try todo.run(["check", "4"]).status, 0)
    }

    func test_taskwarrior_importsTodosExport_andTodoReadsTaskExportBack() throws {
        let task = try installedTool(["task"])
        try addList()
        let export = try todo.run(["export", "--format", "taskwarrior", "--output", directory.file("tasks.json").path])
        XCTAssertEqual(export.status, 0, export.stderr)
        let data = directory.file("taskdata").path, rc = directory.file("taskrc").path
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try Data("data.location=\(data)\nconfirmation=off\njson.array=on\nverbose=nothing\n".utf8).write(
            to: URL(fileURLWithPath: rc))
        var taskwarrior = todo!
        taskwarrior.environment["TASKRC"] = rc
        taskwarrior.environment["TASKDATA"] = data
        let imported = try taskwarrior.run(program: task, ["import", directory.file("tasks.json").path])
        XCTAssertEqual(imported.status, 0, imported.stdout + imported.stderr)
        let exported = try taskwarrior.run(program: task, ["export"])
        XCTAssertEqual(exported.status, 0, exported.stderr)
        guard case .array(let tasks) = try JSONValue(parsing: Array(exported.stdout.utf8)) else {
            return XCTFail(exported.stdout)
        }
        let byDescription = Dictionary(
            tasks.compactMap { task -> (String, JSONObject, String)? in
                guard case .object(let object) = task, case .string(let text)? = object["description"],
                    case .string(let status)? = object["status"]
                else { return nil }
                return (text, object, status)
            }.map { ("\($0.0) \($0.2)", $0.1) }, uniquingKeysWith: { first, _ in first })
        let template = try XCTUnwrap(byDescription["Mow the lawn 😂 recurring"], "\(byDescription.keys)")
        XCTAssertEqual(template["due"], .string("20300115T220000Z"))
        XCTAssertEqual(template["priority"], .string("H"))
        XCTAssertEqual(template["recur"], .string("2w"))
        XCTAssertEqual(template["tags"], .array([.string("garden"), .string("home")]))
        XCTAssertEqual(byDescription["Read a book pending"]?["wait"], .string("20300201T050000Z"))
        XCTAssertEqual(byDescription["Read a book pending"]?["priority"], .string("L"))
        XCTAssertNotNil(byDescription["Old chore completed"])

        // Back into a new list: the same items, the series once.
        todo.environment["TODO_FILE"] = directory.file("back.json").path
        try Data(exported.stdout.utf8).write(to: directory.file("from-task.json"))
        let back = try todo.run(["import", directory.file("from-task.json").path])
        XCTAssertEqual(back.status, 0, back.stderr)
        XCTAssertEqual(try todo.run(["list", "--all"]).stdout, Self.theListBack)
    }

    /// Tasks begun with `task start`, a recurring series, and a user-defined attribute named as
    /// one of todo's own keys (`location`), from the real Taskwarrior: the list stays readable
    /// by every command, and `task import` of todo's export gives each back under its own name.
    func test_taskwarrior_startedTasks_andAttributesNamedLikeTodos_stayReadable_andGoBack() throws {
        let task = try installedTool(["task"])
        let data = directory.file("taskdata").path, rc = directory.file("taskrc").path
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try Data(
            """
            data.location=\(data)
            confirmation=off
            json.array=on
            verbose=nothing
            recurrence.confirmation=no
            uda.location.type=string
            uda.location.label=Where

            """.utf8
        ).write(to: URL(fileURLWithPath: rc))
        var taskwarrior = todo!
        taskwarrior.environment["TASKRC"] = rc
        taskwarrior.environment["TASKDATA"] = data
        for arguments in [
            ["add", "Write report", "location:Office"], ["1", "start"],
            ["add", "Water plants", "due:2030-01-10", "recur:weekly"], ["list"]
        ] {
            let outcome = try taskwarrior.run(program: task, arguments)
            XCTAssertTrue([0, 1].contains(outcome.status), "\(arguments): \(outcome.stderr)")
        }
        let exported = try taskwarrior.run(program: task, ["export"])
        XCTAssertEqual(exported.status, 0, exported.stderr)
        XCTAssertTrue(
            exported.stdout.contains("\"start\":") && exported.stdout.contains("\"parent\":"), exported.stdout)
        try Data(exported.stdout.utf8).write(to: directory.file("from-task.json"))
        XCTAssertEqual(try todo.run(["import", directory.file("from-task.json").path]).status, 0)
        for arguments in [["list", "--all"], ["add", "More"], ["undo"], ["show", "1"]] {
            let outcome = try todo.run(arguments)
            XCTAssertEqual(outcome.status, 0, "\(arguments): \(outcome.stderr)")
        }
        // Begun in Taskwarrior: in progress here.
        let shown = try todo.run(["show", "--json", "1"]).stdout + (try todo.run(["show", "1"]).stdout)
        XCTAssertTrue(shown.contains(#""inProgress": true"#) && shown.contains("Status:      in progress\n"), shown)

        XCTAssertEqual(
            try todo.run(["export", "--format", "taskwarrior", "--output", directory.file("back.json").path]).status, 0)
        let fresh = directory.file("taskdata2").path
        try FileManager.default.createDirectory(atPath: fresh, withIntermediateDirectories: true)
        taskwarrior.environment["TASKDATA"] = fresh
        try Data(try String(contentsOfFile: rc, encoding: .utf8).replacingOccurrences(of: data, with: fresh).utf8)
            .write(to: URL(fileURLWithPath: rc))
        let imported = try taskwarrior.run(program: task, ["import", directory.file("back.json").path])
        XCTAssertEqual(imported.status, 0, imported.stdout + imported.stderr)
        let again = try taskwarrior.run(program: task, ["export"])
        guard case .array(let tasks) = try JSONValue(parsing: Array(again.stdout.utf8)) else {
            return XCTFail(again.stdout)
        }
        let report = tasks.compactMap { task -> JSONObject? in
            guard case .object(let object) = task, object["description"] == .string("Write report") else { return nil }
            return object
        }.first
        XCTAssertEqual(report?["location"], .string("Office"))
        XCTAssertNotNil(report?["start"], "still begun")
        XCTAssertFalse(again.stdout.contains("taskwarrior:"), again.stdout)
    }

    func test_todoSh_findsTheExportsPriorities_andTodoReadsItsFileBack() throws {
        let todoSh = try installedTool(["todo-txt", "todo.sh"])
        try addList()
        let folder = directory.file("todo-txt").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let export = try todo.run(["export", "--format", "todotxt", "--open", "--output", "\(folder)/todo.txt"])
        XCTAssertEqual(export.status, 0, export.stderr)
        let config = directory.file("todo.cfg").path
        try Data(
            "export TODO_DIR=\(folder)\nexport TODO_FILE=$TODO_DIR/todo.txt\nexport DONE_FILE=$TODO_DIR/done.txt\nexport REPORT_FILE=$TODO_DIR/report.txt\n"
                .utf8
        )
        .write(to: URL(fileURLWithPath: config))
        let listpri = try todo.run(program: todoSh, ["-d", config, "-p", "listpri"])
        XCTAssertEqual(listpri.status, 0, listpri.stderr)
        // `1 (A) 2026-11-23 Mow the lawn 😂 …`: the priority, then the creation date.
        let lines = listpri.stdout.split(separator: "\n")
        XCTAssertTrue(
            lines.contains {
                $0.hasPrefix("1 (A) ") && $0.contains(" Mow the lawn 😂 due:2030-01-15T17:00 rec:+2w +garden +home ")
            }, listpri.stdout)
        XCTAssertTrue(
            lines.contains { $0.hasPrefix("2 (I) ") && $0.contains(" Read a book due:2030-03-01 t:2030-02-01 ") },
            listpri.stdout)
        XCTAssertFalse(listpri.stdout.contains("Call Mom"), "no priority, not listed: \(listpri.stdout)")
        // todo.sh adds a line of its own; todo reads the file back with it.
        XCTAssertEqual(
            try todo.run(program: todoSh, ["-d", config, "-p", "add", "(B) Water plants +garden t:2030-01-01"]).status,
            0)
        todo.environment["TODO_FILE"] = directory.file("back.json").path
        let back = try todo.run(["import", "\(folder)/todo.txt"])
        XCTAssertEqual(back.status, 0, back.stderr)
        XCTAssertEqual(back.stderr, "")
        XCTAssertEqual(
            try todo.run(["list", "--all"]).stdout,
            """
            1 [ ] A Mow the lawn 😂 +garden +home  01/15/30 17:00 ↻
            2 [ ] I Read a book                    03/01/30
            3 [ ]   Call Mom @phone +family        01/10/30
            4 [ ] B Water plants +garden

            """)
    }

    private func pythonICalendar() throws -> String {
        let python = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                ".build/ical-venv/bin/python"
            ).path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw XCTSkip("Python's icalendar is not installed (.ci/run makes .build/ical-venv)")
        }
        return python
    }

    func test_pythonICalendar_readsTheExport_andTodoReadsWhatItWrites() throws {
        let python = try pythonICalendar()
        try addList()
        let export = try todo.run(["export", "--format", "ical", "--output", directory.file("todo.ics").path])
        XCTAssertEqual(export.status, 0, export.stderr)
        // The referee reads every VTODO, and writes the calendar again as it would.
        let script = """
            import sys, datetime, icalendar
            calendar = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
            for todo in calendar.walk('VTODO'):
                due = todo.get('DUE')
                # A series in its zone, read as the instant it is (the calendar's VTIMEZONE, or Python's zone).
                zone = (' ' + due.params['TZID'] + ' = ' + due.dt.astimezone(datetime.timezone.utc).strftime('%Y%m%dT%H%M%SZ')) if due and 'TZID' in due.params else ''
                print(todo.get('SUMMARY'), '|', due.to_ical().decode() + zone if due else '-', '|', todo.get('PRIORITY'), '|',
                      todo.get('RRULE').to_ical().decode() if todo.get('RRULE') else '-', '|',
                      ','.join(str(c) for c in todo.get('CATEGORIES').cats) if todo.get('CATEGORIES') else '-', '|', todo.get('STATUS'))
            open(sys.argv[2], 'wb').write(calendar.to_ical())
            """
        let read = try todo.run(
            program: python, ["-c", script, directory.file("todo.ics").path, directory.file("again.ics").path])
        XCTAssertEqual(read.status, 0, read.stderr)
        XCTAssertEqual(
            read.stdout,
            """
            Mow the lawn 😂 | 20300115T170000 America/New_York = 20300115T220000Z | 1 | FREQ=WEEKLY;INTERVAL=2 | garden,home | NEEDS-ACTION
            Read a book | 20300301 | 9 | - | - | NEEDS-ACTION
            Call Mom | 20300110 | None | - | @phone,family | NEEDS-ACTION
            Old chore | - | None | - | - | COMPLETED

            """)
        todo.environment["TODO_FILE"] = directory.file("back.json").path
        let back = try todo.run(["import", directory.file("again.ics").path])
        XCTAssertEqual(back.status, 0, back.stderr)
        XCTAssertEqual(try todo.run(["list", "--all"]).stdout, Self.theListBack)
    }

    /// A zone only the calendar defines, as Python's icalendar writes one from the tz database
    /// (New York's, under a name that is no IANA name, as Outlook's "Customized Time Zone"): todo
    /// reads each time by the calendar's rules, in Berlin, and exports the instant Python's
    /// zoneinfo gives, a time the clocks skip read with the offset before, as RFC 5545 says. (03:00
    /// to 04:00 of the day clocks go forward is left out: Python writes that onset as 03:00, not
    /// 02:00, so by its calendar's own rules that hour is the one skipped.) An empty list's export
    /// is a calendar Python reads.
    func test_pythonICalendar_writesAZone_andTodoReadsTimesByItsRules() throws {
        let python = try pythonICalendar()
        todo.environment["TZ"] = "Europe/Berlin"
        let script = """
            import sys, datetime, zoneinfo, icalendar
            zone = zoneinfo.ZoneInfo('America/New_York')
            definition = icalendar.Timezone.from_tzid('America/New_York', first_date=datetime.date(2020, 1, 1), last_date=datetime.date(2040, 1, 1))
            definition['TZID'] = 'Customized Time Zone'
            calendar = icalendar.Calendar()
            calendar.add('prodid', '-//test//EN')
            calendar.add('version', '2.0')
            calendar.add_component(definition)
            times = [datetime.datetime(year, month, 10, 9, 30) for year in (2021, 2025, 2030, 2039) for month in range(1, 13)]
            times += [datetime.datetime(2030, 3, 10, 1, 30), datetime.datetime(2030, 3, 10, 2, 30), datetime.datetime(2030, 3, 10, 4, 30),
                      datetime.datetime(2030, 11, 3, 0, 30), datetime.datetime(2030, 11, 3, 1, 30), datetime.datetime(2030, 11, 3, 2, 30)]
            for number, local in enumerate(times):
                task = icalendar.Todo()
                task.add('uid', 'zone-%d' % number)
                task.add('summary', 'Task %d' % number)
                task['DUE'] = icalendar.vDatetime(local)
                task['DUE'].params['TZID'] = 'Customized Time Zone'
                calendar.add_component(task)
                print(local.replace(tzinfo=zone).astimezone(datetime.timezone.utc).strftime('%Y%m%dT%H%M%SZ'))
            open(sys.argv[1], 'wb').write(calendar.to_ical())
            """
        let written = try todo.run(program: python, ["-c", script, directory.file("zone.ics").path])
        XCTAssertEqual(written.status, 0, written.stderr)
        let imported = try todo.run(["import", directory.file("zone.ics").path])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertFalse(imported.stderr.contains("Warning"), imported.stderr)
        let exported = try todo.run(["export", "--format", "ical"])
        let dues = exported.stdout.components(separatedBy: "\r\n").filter { $0.hasPrefix("DUE:") }.map {
            String($0.dropFirst(4)) + "\n"
        }
        XCTAssertEqual(dues.joined(), written.stdout)
        XCTAssertEqual(dues.count, 54)

        todo.environment["TODO_FILE"] = directory.file("empty.json").path
        XCTAssertEqual(
            try todo.run(["export", "--format", "ical", "--output", directory.file("empty.ics").path]).status, 0)
        let empty = try todo.run(
            program: python,
            [
                "-c",
                "import sys, icalendar; c = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read()); "
                    + "print(c.name, len(c.walk('VTODO')), [str(z['TZID']) for z in c.walk('VTIMEZONE')])",
                directory.file("empty.ics").path
            ])
        XCTAssertEqual(empty.stdout, "VCALENDAR 0 ['UTC']\n", empty.stderr)
    }
}
