import ToDoCore
import ToDoModel

/// `todo sync` itself, and what it says it did.
extension SyncCommand {
    func sync(prefer: SyncSide, dryRun: Bool, force: Bool, json: Bool, _ runner: CommandRunner) throws {
        // A list that is not synced leaves no sync lock behind.
        guard try runner.store.hasSyncState() else { throw CommandError(message: Self.notSynced, showsUsage: false) }
        // One sync of a list at a time, from reading its state to recording what was sent.
        try Self.whileSyncing(runner) {
            guard let state = try runner.store.loadSyncState() else {
                throw CommandError(message: Self.notSynced, showsUsage: false)
            }
            let password = try Self.password(command: state.account.passwordCommand, runner.context)
            var run = SyncRun(
                store: runner.store,
                client: try Self.client(
                    user: state.account.user, password: password, origin: state.account.calendar, runner),
                timeZone: runner.settings.timeZone, now: runner.context.now, productID: HelpRenderer.productID,
                tieBreaker: prefer, force: force, command: runner.arguments)
            let output = runner.context.output
            do {
                if dryRun {
                    let plan = try run.plan(readState: state)
                    output.write(TerminalText.printableLines(Self.describe(plan)))
                    return
                }
                // A first sync of a thousand items takes a while: how far it has come, on a terminal.
                let progress = ProgressLine(runner.context, verb: "Sending", json: json)
                run.progress = progress.map { line in { sent, total in if total >= 20 { line.update(sent, of: total) } }
                }
                let report: SyncReport
                do {
                    defer { progress?.finish() }
                    report = try run.run(readState: state)
                }
                var after = state
                after.lists = report.lists
                output.write(
                    TerminalText.printableLines(
                        json ? Self.json(report) : Self.describe(report, runner.renderer, after)))
                if !report.refused.isEmpty {
                    throw CommandError.sync(
                        "the server refused \(counted(report.refused.count, "change")) (said above); the rest was synced,"
                            + " and the next sync tries \(report.refused.count == 1 ? "it" : "them") again")
                }
            } catch let error as SyncError {
                throw CommandError.sync(error)
            }
        }
    }

    static func describe(_ plan: SyncPlan) -> String {
        var lines: [String] = []
        for change in plan.local {
            switch change {
            case .add(let item): lines.append("Would receive: \(item.title)")
            case .update(let item): lines.append("Would update \(item.number): \(item.title)")
            case .remove(let item): lines.append("Would remove \(item.number): \(item.title) (deleted on the server)")
            }
        }
        for change in plan.remote {
            switch change {
            case .put(let item, _, _): lines.append("Would send \(item.number): \(item.title)")
            case .delete(_, _, let item): lines.append("Would delete on the server: \(item.title)")
            case .move(let item, _, _):
                lines.append(
                    "Would move \(item.number): \(item.title) to the calendar of the list \(ListName.shown(item.list))")
            }
        }
        lines.append("Would receive \(plan.local.count), send \(plan.remote.count); nothing was changed.")
        return lines.joined(separator: "\n") + "\n"
    }

    static func describe(_ report: SyncReport, _ renderer: ItemRenderer, _ state: SyncState) -> String {
        var lines: [String] = []
        for item in report.received.added { lines.append("Received \(item.number): \(item.title)") }
        for item in report.received.updated {
            // A phone's completion is a check, said as todo check says it.
            let verb =
                report.received.checked.contains(item.id)
                ? "Checked" : report.received.unchecked.contains(item.id) ? "Unchecked" : "Updated"
            lines.append("\(verb) \(item.number): \(item.title)")
        }
        for item in report.received.removed {
            lines.append("Removed \(item.number): \(item.title) (deleted on the server)")
        }
        for item in report.sent { lines.append("Sent \(item.number): \(item.title)") }
        for item in report.moved {
            lines.append("Moved \(item.number): \(item.title) to the calendar of the list \(ListName.shown(item.list))")
        }
        for item in report.deletedRemotely { lines.append("Deleted on the server: \(item.title)") }
        for (item, conflict) in report.conflicts {
            let lost = value(of: conflict.field, in: conflict.lost, renderer)
            let why =
                conflict.byPreference
                ? "which came later cannot be told, and --prefer is \(conflict.winner.rawValue)" : "the later change"
            lines.append(
                conflict.winner == .local
                    ? "Conflict \(item.number) \(conflict.field.rawValue): kept this list's (\(why)); the server's was \(lost)"
                    : "Conflict \(item.number) \(conflict.field.rawValue): took the server's (\(why)); this list's was \(lost), which todo undo brings back"
            )
        }
        for (item, side) in report.keptAgainstDelete {
            lines.append(
                side == .remote
                    ? "Kept \(item.number): \(item.title) (deleted on the server, changed here: sent again)"
                    : "Kept: \(item.title) (deleted here, changed on the server: received again)")
        }
        for (arrived, existing) in report.received.twins {
            lines.append("Twin \(arrived.number): \(arrived.title) arrived with the content of \(existing.number)")
        }
        for (item, reason) in report.received.refused { lines.append("Left out: \(item.title) (\(reason))") }
        for (href, reason) in report.unreadable {
            lines.append("Left alone: \(href) (\(reason)); its item stays as it was")
        }
        for (item, reason) in report.refused { lines.append("Not sent \(item.number): \(item.title) (\(reason))") }
        for (list, reason) in report.notSynced { lines.append("Not synced: the list \(list) (\(reason))") }
        let name = state.account.calendarName.map { "\"\($0)\"" } ?? state.account.calendar.absoluteString
        // One line for each list kept in a calendar of its own; one alone for a single list.
        let lists = Self.reportedLists(report, state)
        for list in lists {
            func of(_ items: [ToDoItem]) -> Int {
                lists.count == 1 ? items.count : items.count { ListName.same($0.list, list) }
            }
            // What was deleted is said apart from what was sent: a forced mass delete sends nothing.
            var counts = ["received \(of(report.received.added) + of(report.received.updated))"]
            if !report.received.removed.isEmpty { counts.append("removed \(of(report.received.removed)) here") }
            counts.append("sent \(of(report.sent))")
            if !report.moved.isEmpty { counts.append("moved \(of(report.moved)) here") }
            if !report.deletedRemotely.isEmpty { counts.append("deleted \(of(report.deletedRemotely)) on the server") }
            let conflicts =
                lists.count == 1 ? report.conflicts.count : report.conflicts.count { ListName.same($0.item.list, list) }
            let calendar = list.map { list in "\"\(state.listCalendar(list)?.wantedCalendar ?? list)\"" } ?? name
            let head =
                lists.count == 1
                ? "Synced with \(calendar)" : "Synced the list \(ListName.shown(list)) with \(calendar)"
            lines.append("\(head): \(counts.joined(separator: ", ")), \(counted(conflicts, "conflict")).")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The lists a sync's report speaks of: the default list, then each list kept in a calendar
    /// of its own by name (`nil`: the default list).
    static func reportedLists(_ report: SyncReport, _ state: SyncState) -> [String?] {
        var lists: [String?] = [nil]
        let items =
            report.received.added + report.received.updated + report.received.removed + report.sent + report.moved
            + report.deletedRemotely
        for name in state.lists.filter({ !$0.isLocal }).map(\.list) + items.compactMap(\.list)
        where !lists.contains(where: { ListName.same($0, name) }) {
            lists.append(name)
        }
        return [nil] + lists.dropFirst().sorted { $0!.lowercased() < $1!.lowercased() }
    }

    static func value(of field: ItemField, in item: ToDoItem, _ renderer: ItemRenderer) -> String {
        switch field {
        case .title: return "\"\(item.title)\""
        case .description: return item.itemDescription.map { "\"\($0)\"" } ?? "no description"
        case .due: return renderer.dueText(item) ?? "no due date"
        case .start: return item.start.map { renderer.dates.string(from: $0) } ?? "no start"
        case .repeatRule: return item.repeatRule ?? "no repeat"
        case .priority: return item.priority.map { "priority \($0)" } ?? "no priority"
        case .tags: return item.tags.isEmpty ? "no tags" : item.tags.map(Tags.shown).joined(separator: " ")
        case .parent: return item.parent.map { "parent \($0.uuidString)" } ?? "no parent"
        case .place: return item.location.map { "\"\($0.name)\"" } ?? "no place"
        case .status: return item.done ? "done" : "open"
        case .progress:
            let percent = item.percentComplete.map { " (\($0)%)" } ?? ""
            return (item.inProgress ? "in progress" : "not begun") + percent
        // The text fields (`ItemField.texts`), each as it is.
        default: return item[text: field].map { "\"\($0)\"" } ?? "no \(field.name)"
        }
    }

    static func json(_ report: SyncReport) -> String {
        func items(_ list: [ToDoItem]) -> JSONValue { .array(list.map(\.json)) }
        var object = JSONObject()
        object["received"] = items(report.received.added)
        object["updated"] = items(report.received.updated)
        object["removed"] = items(report.received.removed)
        object["sent"] = items(report.sent)
        object["deletedOnServer"] = items(report.deletedRemotely)
        object["moved"] = items(report.moved)
        object["conflicts"] = .array(
            report.conflicts.map { conflict in
                var entry = JSONObject()
                entry["id"] = .string(conflict.item.id.uuidString)
                entry["field"] = .string(conflict.conflict.field.rawValue)
                entry["winner"] = .string(conflict.conflict.winner.rawValue)
                entry["decidedBy"] = .string(conflict.conflict.byPreference ? "prefer" : "later")
                entry["lost"] = conflict.conflict.lost.json
                return .object(entry)
            })
        object["unreadable"] = .array(
            report.unreadable.map { href, reason in
                var entry = JSONObject()
                entry["href"] = .string(href)
                entry["reason"] = .string(reason)
                return .object(entry)
            })
        object["notSynced"] = .array(
            report.notSynced.map { list, reason in
                var entry = JSONObject()
                entry["list"] = .string(list)
                entry["reason"] = .string(reason)
                return .object(entry)
            })
        object["refused"] = .array(
            report.refused.map { item, reason in
                var entry = JSONObject()
                entry["id"] = .string(item.id.uuidString)
                entry["number"] = .number(item.number)
                entry["reason"] = .string(reason)
                return .object(entry)
            })
        return String(decoding: JSONValue.object(object).serialized(), as: UTF8.self) + "\n"
    }
}
