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
        // Each due date read once, by index (iterating the array would copy every item), sorted
        // as plain values (ties keep list order), then the items' places dealt out, and each group
        // made at its size.
        var dues = [ItemDate?](repeating: nil, count: items.count)
        var dated: [(key: DueSortKey, index: Int)] = [], undated: [Int] = []
        dated.reserveCapacity(items.count)
        for index in items.indices {
            if let due = items[index].due {
                dues[index] = due
                dated.append((dates.sortKey(of: due), index))
            } else {
                undated.append(index)
            }
        }
        dated.sort { $0.key < $1.key || $0.key == $1.key && $0.index < $1.index }
        var overdue: [Int] = [], later: [Int] = [], byDay: [Int: (day: Day, indices: [Int])] = [:]
        for (_, index) in dated {
            guard let due = dues[index] else { continue }
            let ahead = dates.daysFrom(now, to: due)
            if dates.isOverdue(due, now: now) {
                overdue.append(index)
            } else if ahead < days {
                byDay[ahead, default: (due.day(in: dates.rules), [])].indices.append(index)
            } else {
                later.append(index)
            }
        }
        let whens = [(When.overdue, overdue)] + byDay.keys.sorted().map { (When.day(byDay[$0]!.day, daysFromToday: $0), byDay[$0]!.indices) }
            + [(.later, later), (.undated, undated)]
        return whens.filter { !$0.1.isEmpty }.map { when, indices in Group(when: when, items: indices.map { items[$0] }) }
    }
}
