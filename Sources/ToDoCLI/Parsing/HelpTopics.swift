import ToDoCore
import ToDoModel

/// A piece of help text: a paragraph (filled to the width of the terminal or page), or a table
/// of names and what they mean.
enum HelpBlock: Equatable, Sendable {
    case paragraph(String)
    case table([HelpRow])
}

struct HelpRow: Equatable, Sendable {
    let name: String
    let text: String
}

/// A subject of `todo help <topic>` beyond the commands; the manual page has a section for each.
struct HelpTopic: Equatable, Sendable {
    let name: String
    /// The heading, as `DATES`.
    let heading: String
    let summary: String
    /// The text, which may depend on the date order setting.
    let body: @Sendable (DateOrder) -> [HelpBlock]

    static func == (lhs: HelpTopic, rhs: HelpTopic) -> Bool { lhs.name == rhs.name }
}

/// Every help topic, in the order help lists them. Help on the terminal and the manual page are
/// both made from these, so they cannot drift apart.
enum HelpTopics {
    static let dates = HelpTopic(name: "dates", heading: "DATES", summary: "The date forms of --due and the filters.") {
        order in
        [
            .paragraph(
                "Accepted forms: \(DueDateParser.acceptedForms(order)). Anything else is refused with these forms listed; nothing is guessed."
            ),
            .table([
                HelpRow(
                    name: order == .monthFirst ? "01/10/22" : "10/01/22",
                    text: "10 January 2022 (two-digit years are 2000 to 2099)"),
                HelpRow(name: "2022-01-10 14:30", text: "that day at 14:30"),
                HelpRow(name: "today, tomorrow", text: "today or tomorrow"),
                HelpRow(name: "friday, fri", text: "the next Friday after today"),
                HelpRow(name: "jan, 15th", text: "the next 1 January, the next 15th of a month"),
                HelpRow(
                    name: "3d, +2wk, -1m, 1q, 1y",
                    text: "days, weeks, calendar months, quarters or years from today (or before it, with -)"),
                HelpRow(
                    name: "in 3 days, 1 month",
                    text: "the same in words (a month on from 31 January is February's last day)"),
                HelpRow(name: "2h, in 90 minutes", text: "a time from now"),
                HelpRow(name: "now+2h, tomorrow+17h, eow-1d", text: "a date or time moved by one duration"),
                HelpRow(name: "next monday", text: "the same as monday: the next Monday after today"),
                HelpRow(
                    name: "eod, eow, eom, eoq, eoy",
                    text: "today, this week's Sunday, this month's, quarter's and year's last day"),
                HelpRow(name: "sod, sow, som, soq, soy", text: "today, this week's Monday, the first day of each"),
                HelpRow(
                    name: "tomorrow 17:00, fri 9am", text: "any form with a time: HH:mm, 5pm, 5:30am, noon or midnight"),
                HelpRow(
                    name: "2030-01-10T17:00:00Z",
                    text: "ISO 8601 as Taskwarrior writes it: seconds read to the minute, Z for UTC"),
                HelpRow(
                    name: "someday, later",
                    text: "refused: todo keeps no far-off stand-in date; leave the date out, or give a real one")
            ]),
            .paragraph(
                "Dates are in the local time zone (TZ, read as the C library reads it: a zone name, :/etc/localtime or another zoneinfo file, or POSIX rules such as CET-1CEST,M3.5.0,M10.5.0/3 or UTC+3, three hours behind UTC). A date without a time means that whole calendar day, stored as that date, the same in every zone; a date with a time is that time, even 00:00, and is shown with it. A time the clocks skip that day is refused, naming the time after the change. Dates are shown as \(order == .monthFirst ? "MM/dd/yy" : "dd/MM/yy"), with the year written whole outside 2000 to 2099 (\(order == .monthFirst ? "01/10/1922" : "10/01/1922"))."
            ),
            .paragraph("TODO_DATE_ORDER=dmy reads and shows numeric dates day first (dd/MM/yy); mdy is the default."),
            .paragraph(
                "The filters of list and export take the same forms: --due-before D keeps items due before D begins, --due-after D items due once D has ended; --overdue keeps open items whose due has passed: a time earlier than now, or a day before today."
            )
        ]
    }

    static let repeats = HelpTopic(
        name: "repeat", heading: "REPEATING ITEMS", summary: "Repeat rules, and check of a repeating item."
    ) { _ in
        [
            .table([
                HelpRow(
                    name: "daily, weekly, monthly, yearly", text: "every day, week, month or year from the due date"),
                HelpRow(name: "weekdays", text: "Monday to Friday"),
                HelpRow(name: "every 2 weeks", text: "every N days, weeks, months or years"),
                HelpRow(
                    name: "FREQ=MONTHLY;BYDAY=-1FR",
                    text: "RFC 5545 RRULE text, as calendars write it: here the last Friday of each month")
            ]),
            .paragraph(
                "A repeating item needs a due date; the file keeps the rule as RRULE text. check of a repeating item keeps it open with its number, its due (and start) moved to the next occurrence still ahead (today or later for a whole day, later than now for a time), and adds a done copy with a number of its own that records the occurrence checked: a long-overdue item moves once, to the coming occurrence. COUNT counts down and UNTIL ends the series; its last occurrence checks the item itself. undo takes a check back whole; uncheck of a done copy makes it an item of its own. edit --no-repeat ends a repeat; list --repeating shows repeating items, marked ↻ after the due date."
            ),
            .paragraph(
                "todo follows FREQ=DAILY, WEEKLY, MONTHLY and YEARLY with INTERVAL, COUNT, UNTIL, BYDAY, BYMONTHDAY, BYMONTH, BYSETPOS and WKST; a finer rule from a calendar is kept, and check refuses it (exit 3) until edit gives one todo follows."
            )
        ]
    }

    static let refs = HelpTopic(name: "refs", heading: "REFS", summary: "How commands name items.") { _ in
        [
            .paragraph("A <ref> names one item, open or done:"),
            .table([
                HelpRow(
                    name: "3",
                    text: "the item numbered 3: numbers are given when items are added and never change or get reused"),
                HelpRow(
                    name: "9F3C1D2E-4B5A-…", text: "the item with this id (todo show prints it), in any letter case"),
                HelpRow(name: "9f3c", text: "the one item whose id starts so: a prefix of at least 4 characters")
            ]),
            .paragraph(
                "Commands that take several refs (check, uncheck, remove) resolve them all before changing anything: if one names no item, or a prefix names several, nothing changes and the exit code is 2."
            )
        ]
    }

    static let exitCodes = HelpTopic(name: "exit-codes", heading: "EXIT CODES", summary: "What each exit code means.") {
        _ in
        [
            .table(exitCodeRows),
            .paragraph("Whatever the code, a command that fails changes nothing, and says why on standard error.")
        ]
    }

    static let file = HelpTopic(name: "file", heading: "FILES", summary: "Where the list is kept, and its format.") {
        _ in
        [
            .paragraph(
                "The list is one JSON file: the --file option, else TODO_FILE, else $XDG_DATA_HOME/todo/items.json, else ~/.local/share/todo/items.json. Missing directories are created (mode 0700); the file is mode 0600."
            ),
            .paragraph(
                #"Its format: {"version": 2, "nextNumber": N, "revision": R, "items": [...]}, one item per line with the keys id, number, title, itemDescription, timestamp (a due time, seconds since 1970) or dueDate (a whole day, YYYY-MM-DD, the same in every time zone), start or startDate (the same for the start), repeat (RRULE text), location (name, address, coordinate with latitude and longitude), priority (1 highest to 9 lowest), tags (an array of words), parent (the id of the item this one is a subtask of), done, inProgress, percentComplete, project (work.admin), url, list (the list it belongs to; none is the default list), alarms (reminders: before, seconds before the due, or before the start with of "start", or at, a moment), annotations (dated notes: time and text), createdAt, completedAt, modifiedAt, uid (another program's UID), icalendar (a calendar's lines todo has no field for), and from (what other programs gave the item, one object per program). Fields todo does not know are kept. A file of version 1 (whole days as the moments of local midnights) is read as the days it shows here, and written as version 2 on its first change. A bare array of items (the book app's file) is read too."#
            ),
            .paragraph(
                "Every change is one transaction under a lock: the new list is written beside the old one, flushed to disk and renamed over it, so a crash leaves the old list or the new one. A file todo cannot read is never overwritten."
            ),
            .paragraph(
                "A list of a megabyte or more (about 4,000 items) is written whole only once in up to \(JSONFileStore.journalLineLimit) changes: the others are each one line, flushed to disk, of its journal, items.json.journal, which every command reads with the list. Such a list's file says version 3, which a todo that does not know the journal refuses instead of losing its changes. To read a long list with another program, use todo export (or todo list --json), not the file alone. A long list is mapped, not read: another program cutting its file short while a todo command reads it stops that command with exit status 4, no change half made."
            ),
            .paragraph("Beside the list:"),
            .table([
                HelpRow(name: "items.json.lock", text: "the lock every change takes"),
                HelpRow(
                    name: "items.json.history",
                    text:
                        "the last \(ChangeHistory.keptChanges) changes, one JSON line each, for todo history and todo undo; deleting it only forgets them"
                ),
                HelpRow(
                    name: "items.json.journal",
                    text:
                        "a long list's latest changes, not yet written into items.json: part of the list; never delete it"
                ),
                HelpRow(
                    name: "items.json.index",
                    text:
                        "where each item of a long list is in items.json, so that commands need not scan it; deleting it only costs time"
                ),
                HelpRow(name: ".items.json.spare", text: "the previous list, whose space the next change reuses"),
                HelpRow(
                    name: "items.json.sync",
                    text:
                        "what todo sync keeps: the calendar, the user, and what the last sync agreed (never the password)"
                ),
                HelpRow(
                    name: "items.json.sync.lock",
                    text: "the lock a sync holds from asking the server to recording what it sent")
            ]),
            .paragraph(
                "todo uses a file beside the list only when it is this user's own regular file, not a link, and (the history, the journal and the sync state) not writable by the group or others: one planted by another user in a shared folder is refused with an error naming it (an index is not used)."
            )
        ]
    }

    static let environment = HelpTopic(
        name: "environment", heading: "ENVIRONMENT", summary: "The settings todo reads from the environment."
    ) { _ in
        [
            .table([
                HelpRow(name: "TODO_FILE", text: "the data file (see 'todo help file')"),
                HelpRow(
                    name: "XDG_DATA_HOME",
                    text: "where the data file goes when TODO_FILE is not set (default: ~/.local/share)"),
                HelpRow(name: "TODO_DATE_ORDER", text: "mdy (the default) or dmy: the order of numeric dates"),
                HelpRow(
                    name: "TODO_LOCK_TIMEOUT",
                    text: "seconds to wait for another todo's change (default: 10, at most 3600)"),
                HelpRow(name: "TODO_GEOCODER_URL", text: "a Nominatim-compatible search URL to look addresses up on"),
                HelpRow(
                    name: "TODO_HTTP_TIMEOUT",
                    text:
                        "seconds an HTTP request may take in all (default: 5 to look up an address, 30 to import from a URL)"
                ),
                HelpRow(
                    name: "TODO_IMPORT_MAX_MB",
                    text:
                        "the largest source todo import reads (a download, a file, a folder, standard input) and the most todo add - reads, in MB (default: 256, at most 1024); a geocoder's answer may be 4 MB"
                ),
                HelpRow(
                    name: "TODO_SYNC_PASSWORD",
                    text: "the password todo sync gives the server, unless the sync was set up with --password-command"),
                HelpRow(name: "TZ", text: "the time zone for dates"),
                HelpRow(name: "NO_COLOR", text: "no colour when set and not empty"),
                HelpRow(name: "TERM", text: "dumb: no colour"),
                HelpRow(
                    name: "COLUMNS",
                    text: "the terminal's width, when the terminal does not say it; a pipe gets whole rows"),
                HelpRow(
                    name: "LINES",
                    text: "the terminal's height, when the terminal does not say it: todo next shows a screenful"),
                HelpRow(name: "HOME", text: "the home directory")
            ]),
            .paragraph(
                "A setting with a bad value is an error (exit 64) for the commands that use it, never silently replaced by a default: TZ and TODO_DATE_ORDER for every command on the list, TODO_LOCK_TIMEOUT for those that change it, the HTTP settings when an address is looked up or a URL imported."
            )
        ]
    }

    static let all = [dates, repeats, refs, exitCodes, file, environment]

    /// Each exit code and what it means; the overview lists them too.
    static var exitCodeRows: [HelpRow] {
        ExitCode.allCases.map { HelpRow(name: String($0.rawValue), text: $0.meaning) }
    }

    static func topic(named name: String) -> HelpTopic? {
        all.first { $0.name == name.lowercased() }
    }
}
