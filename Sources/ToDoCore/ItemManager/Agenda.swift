import ToDoModel
import ToDoStorage

/// Open items by when they are due (`todo agenda`): overdue, each day from today for a number of
/// days, later, and without a date. A time that has passed is overdue, even earlier today. Within
/// a group, items come by due time (a whole day after the times of that day), then in list order.
package enum Agenda {
    /// Which items a group holds.
    package enum When: Equatable, Sendable {
        case overdue
        /// The day `daysFromToday` days after today (0 today), which starts at `day`.
        case day(Day, daysFromToday: Int)
        case later
        case undated
    }

    package struct Group: Sendable {
        package var when: When
        /// The items, as the list keeps them: an agenda shows thousands.
        package var items: [StoredItem] = []
    }

    /// The non-empty groups of `items`, in order: overdue, each of `days` days from today that has
    /// items (today counting as the first), later, undated. Days are counted in the zone of `dates`.
    package static func groups(_ items: [StoredItem], days: Int, now: Date, dates: DueDateFormatter) -> [Group] {
        var overdue = Group(when: .overdue), later = Group(when: .later), undated = Group(when: .undated)
        var byDay: [Int: Group] = [:]
        // Each due date read once, by index (iterating the array would copy every item), sorted
        // as plain values (ties keep list order), then the items dealt out.
        var dated: [(due: DueSortKey, date: ItemDate, index: Int)] = [], undatedIndices: [Int] = []
        for index in items.indices {
            if let due = items[index].due { dated.append((dates.sortKey(of: due), due, index)) } else { undatedIndices.append(index) }
        }
        dated.sort { ($0.due, $0.index) < ($1.due, $1.index) }
        for (_, due, index) in dated {
            let item = items[index]
            let ahead = dates.daysFrom(now, to: due)
            if dates.isOverdue(due, now: now) {
                overdue.items.append(item)
            } else if ahead < days {
                if byDay[ahead] == nil { byDay[ahead] = Group(when: .day(due.day(in: dates.rules), daysFromToday: ahead)) }
                byDay[ahead]!.items.append(item)
            } else {
                later.items.append(item)
            }
        }
        undated.items = undatedIndices.map { items[$0] }
        return ([overdue] + byDay.keys.sorted().map { byDay[$0]! } + [later, undated]).filter { !$0.items.isEmpty }
    }
}
