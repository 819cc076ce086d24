import ToDoCore
import ToDoModel

import struct ToDoStorage.StoredItem

/// `todo list`, and `todo` alone: the open items, then the done ones.
struct ListItemsCommand: ListCommand {
    static let all = OptionSpec(
        name: "all", valueName: nil,
        help: "Also show items that wait for their start date, and every done item.")

    static let spec = CommandSpec(
        name: "list", summary: "List open items, then done items.", arguments: [QueryOptions.filterWords],
        options: QueryOptions.all + [all, CommonOptions.json],
        exclusiveOptions: QueryOptions.exclusions,
        discussion: """
            Each row shows the number, [ ] or [x], the title, the due date and the location. Open items
            come in the order they were added, done items in the order they were checked; --sort orders
            each section by its key (items without it last). Beside the open items, only the 10 done items
            checked last are shown, then how many more there are; --done shows them all. An open item
            whose start date is after today waits: it is left out, and a line says how many wait;
            --all shows them, and every done item; --waiting them alone. --json gives the same items as
            the text. Dates take the forms of --due. 'todo' with
            no command is 'todo list', and 'todo --open' is 'todo list --open'.
            Taskwarrior's filter words work too: todo list +work -home project:home pri:H due:today
            due.before:eow status:pending; project:home also shows home.garden. Other words are
            searched for, each as --search does. Taskwarrior's reports are lists: todo overdue,
            active, waiting, completed and all are todo list --overdue, --active, --waiting, --done
            and --all.
            """,
        aliases: ["ls"], attributeWords: .filter)

    var section: ListSection = .all
    /// Whether to show waiting items and every done item (`--all`).
    var showsAll = false
    /// Only the subtasks of this item (`--parent`).
    var parent: ItemReference?
    var json = false
    var query = ItemQuery()

    init(
        section: ListSection = .all, showsAll: Bool = false, parent: ItemReference? = nil, json: Bool = false,
        query: ItemQuery = ItemQuery()
    ) {
        self.section = section
        self.showsAll = showsAll
        self.parent = parent
        self.json = json
        self.query = query
    }

    init(_ arguments: CommandArguments) throws(CommandError) {
        (section, query) = try arguments.selection()
        showsAll = arguments.flag(Self.all)
        parent = try arguments.reference(QueryOptions.parent)
        json = arguments.flag(CommonOptions.json)
    }

    func run(with runner: CommandRunner) throws {
        let context = runner.context
        let manager = try runner.load()
        let now = context.now(), dates = runner.renderer.dates
        var (candidates, doneCandidates) = try manager.items(in: section, subtasksOf: parent)
        // Items that wait for their start date are left out of the list's own view, text or JSON.
        var waitingItems: [StoredItem] = [], kept: [Int]?
        // (`--waiting` asks for them alone.)
        if !showsAll, !query.waiting, manager.mayHaveStartDates {
            (waitingItems, kept) = ItemQuery.settingAsideWaiting(in: candidates, now: now, dates: dates)
        }
        // Filters, orders and limits, and JSON, take the items themselves.
        if let positions = kept, json || !query.isEmpty {
            candidates = positions.map { candidates[$0] }
            kept = nil
        }
        let (open, done, moreDone, cut) = query.apply(
            open: candidates, done: doneCandidates, now: now, dates: dates,
            latestDone: section == .all && !showsAll ? ItemQuery.latestDoneShown : nil)
        if json {
            runner.renderer.writeJSON([open, done], to: context.output)
        } else {
            // Subtasks under their parents, when the list has any.
            let trees =
                manager.mayHaveSubtasks
                ? (ItemManager.treeOrder(of: open, among: kept), ItemManager.treeOrder(of: done))
                : (
                    ItemManager.TreeOrder(positions: kept, depths: nil),
                    ItemManager.TreeOrder(positions: nil, depths: nil)
                )
            // A filtered view says the letters the whole list says (its items only are read again).
            let letters =
                !query.isEmpty
                && (ItemQuery.haveFinePriorities(candidates) || ItemQuery.haveFinePriorities(doneCandidates))
            runner.renderer.writeList(
                open: open, done: done, trees: trees, section: section, width: context.outputWidth,
                priorityLetters: letters, to: context.output)
        }
        // What was left out, on standard error (a script's output is the items alone), counting
        // only items the filters let through.
        var hints: [String] = []
        if cut > 0 { hints.append("… \(counted(cut, "more item")) past --limit \(query.limit ?? 0)") }
        if moreDone > 0 { hints.append("… and \(counted(moreDone, "more done item")): todo list --done") }
        let waiting = waitingItems.isEmpty ? 0 : query.countMatching(waitingItems, now: now, dates: dates)
        if waiting > 0 {
            let items = waiting == 1 ? "1 item waits" : "\(waiting) items wait"
            hints.append("… \(items) for a start date after today: todo list --all")
        } else if showsAll, !json, manager.mayHaveStartDates {
            let shownWaiting = open.count { $0.waitsForItsStart(now: now, dates: dates) }
            if shownWaiting > 0 {
                hints.append(
                    "… \(shownWaiting == 1 ? "1 of these waits" : "\(shownWaiting) of these wait") for a start date after today"
                )
            }
        }
        if !hints.isEmpty { context.errorOutput.write(hints.map { $0 + "\n" }.joined()) }
        if !json, kept?.isEmpty ?? open.isEmpty, done.isEmpty, context.output.isTerminal {
            let what = section == .open ? "open items" : section == .done ? "done items" : "items"
            context.errorOutput.write("No \(what). Add one with: todo add \"Call Mom\" --due tomorrow\n")
        }
    }
}

/// Which part of the list to show.
enum ListSection: Equatable, Sendable {
    case all, open, done
}
