import Foundation
import ToDoCore

/// `todo list`, and `todo` alone: the open items, then the done ones.
struct ListItemsCommand: ListCommand {
    static let spec = CommandSpec(
        name: "list", summary: "List open items, then done items.",
        options: QueryOptions.all + [CommonOptions.json],
        exclusiveOptions: QueryOptions.exclusions,
        discussion: """
            Each row shows the number, [ ] or [x], the title, the due date and the location. Open items
            come in the order they were added, done items in the order they were checked; --sort orders
            each section by its key (items without it last). Beside the open items, only the 10 done items
            checked last are shown, then how many more there are; --done shows them all. Dates take the forms of --due. 'todo' with
            no command is 'todo list', and 'todo --open' is 'todo list --open'.
            """,
        aliases: ["ls"])

    var section: ListSection = .all
    var json = false
    var query = ItemQuery()

    init(section: ListSection = .all, json: Bool = false, query: ItemQuery = ItemQuery()) {
        self.section = section
        self.json = json
        self.query = query
    }

    init(_ arguments: CommandArguments) throws(UsageError) {
        try arguments.noPositionals()
        section = arguments.section()
        json = arguments.flag(CommonOptions.json)
        query = try arguments.query()
    }

    /// How many done items the list's own view shows when it shows both sections: the ones checked
    /// last. `--done` and `--json` show them all.
    static let latestDoneShown = 10

    func run(with runner: CommandRunner) throws {
        let context = runner.context
        let manager = try runner.store.load()
        let (open, done, moreDone) = query.apply(open: section == .done ? [] : manager.toDoItems,
                                                 done: section == .open ? [] : manager.doneItems,
                                                 now: context.now(), dates: runner.renderer.dates,
                                                 latestDone: section == .all && !json ? Self.latestDoneShown : nil)
        if json {
            runner.renderer.writeJSON([open, done], to: context.output)
        } else {
            runner.renderer.writeList(open: open, done: done, section: section, width: context.outputWidth, to: context.output)
            if moreDone > 0 {
                let more = moreDone == 1 ? "1 more done item" : "\(moreDone) more done items"
                runner.write(runner.renderer.style.dim("… and \(more): todo list --done") + "\n")
            }
            if open.isEmpty, done.isEmpty, context.output.isTerminal {
                let what = section == .open ? "open items" : section == .done ? "done items" : "items"
                context.errorOutput.write("No \(what). Add one with: todo add \"Call Mom\" --due tomorrow\n")
            }
        }
    }
}

/// Which part of the list to show.
enum ListSection: Equatable, Sendable {
    case all, open, done
}
