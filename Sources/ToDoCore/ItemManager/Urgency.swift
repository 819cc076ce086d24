import ToDoModel
import ToDoStorage

/// How urgent an open item is, as Taskwarrior's `next` report ranks its tasks, with its default
/// coefficients: the due (12, growing from two weeks ahead to a week overdue), the tag `next`
/// (15), being what another item waits for (8: Taskwarrior's blocking: a subtask of an open item,
/// or a task an open item still depends on as Taskwarrior kept it), the priority (high 6, medium
/// 3.9, low 1.8), a start or Taskwarrior's `scheduled` that has come (5), being in progress (4),
/// age (2 at a year), annotations (0.8, 0.9, 1 for one, two, three or more), tags (0.8, 0.9, 1
/// likewise), a project (1); an item waiting for open items (its subtasks, or the tasks it still
/// depends on) counts 5 less (blocked).
public enum Urgency {
    /// What ranks an item beside its own fields: its place among the open items, and what an
    /// import from Taskwarrior kept with it.
    package struct Standing {
        /// It is a subtask of an open item, or an open item depends on it.
        var isBlocking = false
        /// It has open subtasks, or depends on an open item.
        var isBlocked = false
        var annotations = 0
        /// Taskwarrior's `scheduled`, when an import kept it.
        var scheduled: Double?
    }

    /// The score of `item` (its `priority` read once, by the caller), standing as `standing` says.
    package static func score(
        of item: StoredItem, priority: Int?, _ standing: Standing, now: Date, dates: DueDateFormatter
    ) -> Double {
        let seconds = now.timeIntervalSince1970
        var score = 0.0
        if let due = item.due {
            // A whole day is due by its end.
            var moment = dates.moment(of: due)
            if case .day = due { moment += 86_400 }
            score += 12 * dueFactor(daysOverdue: (seconds - moment) / 86_400)
        }
        let tags = item.tags
        if Tags.contains(tags, "next") { score += 15 }
        if standing.isBlocking { score += 8 }
        if standing.isBlocked { score -= 5 }
        if let priority {
            switch PriorityLevel(priority) {
            case .high: score += 6
            case .medium: score += 3.9
            case .low: score += 1.8
            }
        }
        let started = item.start.map { dates.moment(of: $0) <= seconds } ?? false
        if started || standing.scheduled.map({ $0 <= seconds }) == true { score += 5 }
        if item.inProgress { score += 4 }
        if let created = item.createdAt { score += 2 * min(max((seconds - created) / 86_400 / 365, 0), 1) }
        score += countFactor(standing.annotations) + countFactor(tags.count)
        if item.project != nil { score += 1 }
        return score
    }

    /// Taskwarrior's factor for how many annotations or tags: 0.8, 0.9, then 1.
    static func countFactor(_ count: Int) -> Double {
        switch count {
        case 0: 0
        case 1: 0.8
        case 2: 0.9
        default: 1
        }
    }

    /// Taskwarrior's due factor: 1 from a week overdue, 0.2 from two weeks ahead, in a line between.
    static func dueFactor(daysOverdue days: Double) -> Double {
        if days >= 7 { return 1 }
        if days >= -14 { return (days + 14) * 0.8 / 21 + 0.2 }
        return 0.2
    }
}

extension ItemManager {
    /// The open items that can be done now, most urgent first (`Urgency`), with their scores:
    /// those waiting for a start after today are left out. Ties keep the list's order. Also
    /// whether any has a priority no level names (a list of them shows todo.txt's letters).
    package func rankedByUrgency(
        _ candidates: [StoredItem], now: Date, dates: DueDateFormatter
    ) -> (ranked: [(item: StoredItem, urgency: Double)], finePriorities: Bool) {
        let (ids, parents) = openStored.idsAndParents()
        let openIDs = Set(ids)
        let blocked = Set(parents.compactMap { $0 }.filter(openIDs.contains))
        let local = CivilTime(rules: dates.rules)
        // What an import from Taskwarrior kept: the open tasks an item still depends on.
        var keptDependencies: Set<UUID> = []
        var finePriorities = false
        var scored = candidates.enumerated().compactMap {
            offset, item -> (offset: Int, item: StoredItem, urgency: Double)? in
            guard !item.done, !item.waitsForItsStart(now: now, dates: dates) else { return nil }
            var standing = Urgency.Standing(
                isBlocking: item.parent.map(openIDs.contains) ?? false, isBlocked: blocked.contains(item.id))
            // Only an item with notes or another program's members is read whole.
            if item.hasNotesOrForeignMembers {
                let fields = item.storage.fields
                standing.annotations = fields.annotations.count
                let kept = fields.foreignMembers.members(from: TaskwarriorFormat.source)
                if case .string(let scheduled)? = kept["scheduled"] {
                    standing.scheduled = TaskwarriorFormat.moment(ofDate: scheduled, local: local)
                }
                for uuid in TaskwarriorFormat.uuids(ofDepends: kept["depends"]) {
                    guard let id = UUID(uuidString: uuid), openIDs.contains(id) else { continue }
                    standing.isBlocked = true
                    keptDependencies.insert(id)
                }
            }
            let priority = item.priority
            if let priority, !PriorityLevel.isLevel(priority) { finePriorities = true }
            return (offset, item, Urgency.score(of: item, priority: priority, standing, now: now, dates: dates))
        }
        // What an open item still depends on blocks it, as a subtask of one does (once).
        if !keptDependencies.isEmpty {
            for index in scored.indices where keptDependencies.contains(scored[index].item.id) {
                if !(scored[index].item.parent.map(openIDs.contains) ?? false) { scored[index].urgency += 8 }
            }
        }
        let ranked: [(item: StoredItem, urgency: Double)] = scored.sorted {
            $0.urgency != $1.urgency ? $0.urgency > $1.urgency : $0.offset < $1.offset
        }.map { (item: $0.item, urgency: $0.urgency) }
        return (ranked, finePriorities)
    }
}
