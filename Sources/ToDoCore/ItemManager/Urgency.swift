import ToDoModel
import ToDoStorage

/// How urgent an open item is, as Taskwarrior's `next` report ranks its tasks, with its default
/// coefficients: the due (12, growing from two weeks ahead to a week overdue), the tag `next`
/// (15), being what another item waits for (a subtask of an open item, 8: Taskwarrior's
/// blocking), the priority (high 6, medium 3.9, low 1.8), a start that has come (5), being in
/// progress (4), age (2 at a year), tags (up to 1), a project (1); an item waiting for its open
/// subtasks counts 5 less (blocked).
public enum Urgency {
    /// The score of `item`; `isBlocking`: it is a subtask of an open item; `isBlocked`: it has
    /// open subtasks.
    package static func score(
        of item: StoredItem, isBlocking: Bool, isBlocked: Bool, now: Date, dates: DueDateFormatter
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
        if isBlocking { score += 8 }
        if isBlocked { score -= 5 }
        if let priority = item.priority {
            switch PriorityLevel(priority) {
            case .high: score += 6
            case .medium: score += 3.9
            case .low: score += 1.8
            }
        }
        if let start = item.start, dates.moment(of: start) <= seconds { score += 5 }
        if item.inProgress { score += 4 }
        if let created = item.createdAt { score += 2 * min(max((seconds - created) / 86_400 / 365, 0), 1) }
        switch tags.count {
        case 0: break
        case 1: score += 0.8
        case 2: score += 0.9
        default: score += 1
        }
        if item.project != nil { score += 1 }
        return score
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
    /// those waiting for a start after today are left out. Ties keep the list's order.
    package func rankedByUrgency(
        _ candidates: [StoredItem], now: Date, dates: DueDateFormatter
    ) -> [(item: StoredItem, urgency: Double)] {
        let (ids, parents) = openStored.idsAndParents()
        let openIDs = Set(ids)
        let blocked = Set(parents.compactMap { $0 }.filter(openIDs.contains))
        let scored = candidates.enumerated().compactMap {
            offset, item -> (offset: Int, item: StoredItem, urgency: Double)? in
            guard !item.done, !item.waitsForItsStart(now: now, dates: dates) else { return nil }
            let isBlocking = item.parent.map(openIDs.contains) ?? false
            return (
                offset, item,
                Urgency.score(
                    of: item, isBlocking: isBlocking, isBlocked: blocked.contains(item.id), now: now, dates: dates)
            )
        }
        return scored.sorted { $0.urgency != $1.urgency ? $0.urgency > $1.urgency : $0.offset < $1.offset }.map {
            ($0.item, $0.urgency)
        }
    }
}
