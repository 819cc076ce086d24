import Foundation
import TestSupport
import ToDoModel
import XCTest

/// Reminders between todo and a phone, through a real Radicale on 127.0.0.1, with the Python
/// caldav library as the phone, in Berlin's time.
final class ReminderSyncTests: SyncServerTestCase {
    /// Each alarm on the server as the phone reads it: the task's title, the alarm's action, its
    /// trigger and what the trigger counts from, and its other properties named.
    private func phoneAlarms() throws -> String {
        try phone(
            """
            for todo in sorted(calendar.todos(include_completed=True), key=lambda t: str(t.icalendar_component['SUMMARY'])):
                c = todo.icalendar_component
                for a in c.walk('VALARM'):
                    t = a['TRIGGER']
                    others = sorted(k for k in a.keys() if k not in ('ACTION', 'TRIGGER'))
                    print(c['SUMMARY'], a['ACTION'], t.to_ical().decode(), t.params.get('RELATED') or t.params.get('VALUE'), ' '.join(others))
            """)
    }

    /// A reminder travels both ways with its trigger, and survives a title edit on either side.
    func test_aReminderTravelsBothWays_andSurvivesATitleEditOnEitherSide() throws {
        XCTAssertEqual(try run("sync", "setup", server.url.absoluteString, "--user", "alice").status, 0)
        XCTAssertEqual(try run("add", "Call Mom", "--due", "2030-01-10 17:00", "--remind", "15m").status, 0)
        XCTAssertEqual(try run("sync").status, 0)
        XCTAssertEqual(try phoneAlarms(), "Call Mom DISPLAY -PT15M END DESCRIPTION\n")

        XCTAssertEqual(try run("edit", "1", "--title", "Call Mom back").status, 0)
        XCTAssertEqual(try run("sync").status, 0)
        XCTAssertEqual(try phoneAlarms(), "Call Mom back DISPLAY -PT15M END DESCRIPTION\n")
        XCTAssertEqual(
            try phone("print(calendar.todos()[0].icalendar_component.walk('VALARM')[0]['DESCRIPTION'])"),
            "Call Mom back\n",
            "the alarm shows the new title")

        _ = try phone(
            """
            import icalendar
            todo = calendar.todos()[0]
            todo.icalendar_component['SUMMARY'] = icalendar.vText('Call Mom tonight')
            todo.save()
            """)
        XCTAssertEqual(try run("sync").status, 0)
        let shown = try run("show", "1").stdout
        XCTAssertTrue(
            shown.contains("Title:       Call Mom tonight\n")
                && shown.contains("Reminders:   Thursday 01/10/30 16:45 (15 minutes before the due)\n"), shown)
        XCTAssertEqual(
            try run("sync").stdout, "Synced with \"Tasks\": received 0, sent 0, 0 conflicts.\n", "nothing left to do")

        // The phone adds one before the due and one at a time: both ring here.
        _ = try phone(
            """
            import icalendar, datetime
            todo = calendar.todos()[0]
            a = icalendar.Alarm(); a.add('ACTION', 'DISPLAY'); a.add('DESCRIPTION', 'Reminder')
            a.add('TRIGGER', datetime.timedelta(hours=-2), parameters={'RELATED': 'END'})
            todo.icalendar_component.add_component(a)
            b = icalendar.Alarm(); b.add('ACTION', 'DISPLAY'); b.add('DESCRIPTION', 'Reminder')
            b.add('TRIGGER', datetime.datetime(2030, 1, 10, 7, 0, tzinfo=datetime.timezone.utc))
            todo.icalendar_component.add_component(b)
            todo.save()
            """)
        XCTAssertEqual(try run("sync").status, 0)
        XCTAssertTrue(
            try run("show", "1").stdout.contains(
                """
                Reminders:   Thursday 01/10/30 16:45 (15 minutes before the due)
                             Thursday 01/10/30 15:00 (2 hours before the due)
                             Thursday 01/10/30 08:00

                """))
    }

    /// A phone's alarm with a sound, REPEAT and DURATION, and its own properties, survives an
    /// edit in todo as it came.
    func test_aPhonesAlarmWithRepeatAndASound_survivesAnEditInTodo() throws {
        XCTAssertEqual(try run("sync", "setup", server.url.absoluteString, "--user", "alice").status, 0)
        _ = try phone(
            """
            calendar.save_todo(ical='''BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:-//Phone//EN
            BEGIN:VTODO
            UID:dentist@phone
            DTSTAMP:20300101T000000Z
            SUMMARY:Dentist
            DUE:20300111T090000Z
            BEGIN:VALARM
            ACTION:AUDIO
            TRIGGER;VALUE=DATE-TIME:20300111T080000Z
            REPEAT:2
            DURATION:PT5M
            ATTACH;FMTTYPE=audio/basic:https://example.com/bell.aud
            X-APPLE-DEFAULT-ALARM:FALSE
            END:VALARM
            END:VTODO
            END:VCALENDAR
            ''')
            """)
        XCTAssertEqual(try run("sync").status, 0)
        XCTAssertTrue(try run("show", "1").stdout.contains("Reminders:   Friday 01/11/30 09:00\n"))
        XCTAssertEqual(try run("edit", "1", "--title", "Dentist, bring the card").status, 0)
        XCTAssertEqual(
            try run("sync").stdout,
            "Sent 1: Dentist, bring the card\nSynced with \"Tasks\": received 0, sent 1, 0 conflicts.\n")
        XCTAssertEqual(
            try phoneAlarms(),
            "Dentist, bring the card AUDIO 20300111T080000Z DATE-TIME ATTACH DURATION REPEAT X-APPLE-DEFAULT-ALARM\n")
        XCTAssertEqual(
            try phone(
                """
                a = calendar.todos()[0].icalendar_component.walk('VALARM')[0]
                print(a['REPEAT'], a['DURATION'].to_ical().decode(), a['ATTACH'], a['ATTACH'].params['FMTTYPE'])
                """), "2 PT5M https://example.com/bell.aud audio/basic\n")
    }

    /// `--due … 09:00 --repeat daily --remind 10m`, checked: the phone's next one rings at 08:50
    /// the next day.
    func test_aRepeatingItemsReminder_movesWithIt_onThePhoneToo() throws {
        XCTAssertEqual(try run("sync", "setup", server.url.absoluteString, "--user", "alice").status, 0)
        XCTAssertEqual(
            try run("add", "Water the plants", "--due", "2030-01-10 09:00", "--repeat", "daily", "--remind", "10m")
                .status, 0)
        XCTAssertEqual(try run("sync").status, 0)
        XCTAssertEqual(try run("check", "1").status, 0)
        XCTAssertEqual(try run("sync").status, 0)
        XCTAssertEqual(
            try phone(
                """
                for todo in calendar.todos():
                    c = todo.icalendar_component
                    a = c.walk('VALARM')[0]
                    print(c['DUE'].to_ical().decode(), c['DUE'].params.get('TZID'), a['TRIGGER'].to_ical().decode(), a['TRIGGER'].params['RELATED'])
                """), "20300111T090000 Europe/Berlin -PT10M END\n",
            "08:50 in Berlin on the 11th: the series is Berlin's")
        XCTAssertTrue(
            try run("show", "1").stdout.contains("Reminders:   Friday 01/11/30 08:50 (10 minutes before the due)\n"))
    }

    /// A phone's reminder whose time has come is printed by `todo remind` once; a done task's never.
    func test_remind_printsAPhonesReminderOnce_andNeverADoneTasks() throws {
        XCTAssertEqual(try run("sync", "setup", server.url.absoluteString, "--user", "alice").status, 0)
        _ = try phone(
            """
            import datetime
            due = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(minutes=10)).strftime('%Y%m%dT%H%M%SZ')
            for uid, title, status in [('soon@phone', 'Call the plumber', 'NEEDS-ACTION'), ('done@phone', 'Feed the cat', 'COMPLETED')]:
                calendar.save_todo(ical='BEGIN:VCALENDAR\\r\\nVERSION:2.0\\r\\nPRODID:-//Phone//EN\\r\\nBEGIN:VTODO\\r\\nUID:' + uid
                    + '\\r\\nDTSTAMP:20300101T000000Z\\r\\nSUMMARY:' + title + '\\r\\nSTATUS:' + status + '\\r\\nDUE:' + due
                    + '\\r\\nBEGIN:VALARM\\r\\nACTION:DISPLAY\\r\\nDESCRIPTION:Reminder\\r\\nTRIGGER;RELATED=END:-PT15M\\r\\nEND:VALARM\\r\\nEND:VTODO\\r\\nEND:VCALENDAR\\r\\n')
            """)
        XCTAssertEqual(try run("sync").status, 0)
        let first = try run("remind")
        XCTAssertEqual(first.status, 0)
        XCTAssertEqual(first.stdout.split(separator: "\n").count, 1, first.stdout)
        XCTAssertTrue(first.stdout.contains(": Call the plumber (due "), first.stdout)
        XCTAssertEqual(try run("remind"), Outcome(status: 0, stdout: "", stderr: ""), "each once")
    }
}
