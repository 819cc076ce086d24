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
        // Each due read once, by index (iterating the array would copy every item), and placed
        // once: its group and where it sorts, as plain integers (the key's two words, then the
        // item's place, so that ties keep list order); a long list's two halves at once, each
        // sorted, then merged. Then the items' places are dealt out in that order, and each group
        // made at its size.
        let today = dates.dayNumber(of: now)
        /// The slot of an overdue item; of one due after the days shown.
        let overdueSlot = -1, laterSlot = max(days, 0)
        let halves = BackgroundWork.inTwoHalves(items.count, minimumCount: Parallelism.itemsInTwoHalvesMinimumCount) {
            range in
            var dated: [Placed] = [], undated: [Int] = []
            dated.reserveCapacity(range.count)
            for index in range {
                guard let due = items[index].due else {
                    undated.append(index)
                    continue
                }
                let (key, ahead, isOverdue) = dates.placement(of: due, now: now, today: today)
                let words = key.words
                dated.append(
                    Placed(
                        moment: words.moment, kindAndPlace: words.kind << 32 | UInt64(index),
                        slot: isOverdue ? overdueSlot : min(max(ahead, 0), laterSlot)))
            }
            return (Placed.sortedByDue(dated), undated)
        }
        let dated = halves.count == 2 ? Placed.merged(halves[0].0, halves[1].0) : halves[0].0
        let undated = halves.flatMap(\.1)
        var overdue: [Int] = [], later: [Int] = [], byDay: [Int: [Int]] = [:]
        for placed in dated {
            let index = Int(truncatingIfNeeded: placed.kindAndPlace & 0xFFFF_FFFF)
            switch placed.slot {
            case overdueSlot: overdue.append(index)
            case laterSlot: later.append(index)
            default: byDay[placed.slot, default: []].append(index)
            }
        }
        // A day's `Day` from its first item: a time's day in the zone.
        let dayGroups = byDay.keys.sorted().compactMap { ahead in
            byDay[ahead].flatMap { indices in
                items[indices[0]].due.map { (When.day($0.day(in: dates.rules), daysFromToday: ahead), indices) }
            }
        }
        let whens = [(When.overdue, overdue)] + dayGroups + [(.later, later), (.undated, undated)]
        return whens.filter { !$0.1.isEmpty }.map { when, indices in Group(when: when, items: indices.map { items[$0] })
        }
    }

    /// A dated item as the agenda sorts it: its due's key as two words (`DueSortKey.words`), then
    /// its place in the list, with 0 (a day) or 1 (a time) above it; and its group (`slot`).
    private struct Placed {
        var moment: UInt64, kindAndPlace: UInt64
        var slot: Int

        static func comesBefore(_ a: Placed, _ b: Placed) -> Bool {
            a.moment < b.moment || a.moment == b.moment && a.kindAndPlace < b.kindAndPlace
        }

        /// `placed`, in list order, sorted by due: by moment, then a day before a time, then in
        /// list order. A stable radix sort, a byte at a time from the lowest (the kind, then the
        /// moment's eight), each byte that every key shares skipped: linear in the count, where
        /// comparing thousands of keys costs several times as much.
        static func sortedByDue(_ placed: [Placed]) -> [Placed] {
            var sorted = placed, spare = placed
            var starts = [Int](repeating: 0, count: 257)
            for pass in 0..<9 {
                func digit(_ item: Placed) -> Int {
                    Int(
                        truncatingIfNeeded: pass == 0 ? item.kindAndPlace >> 32 : item.moment >> (8 * (pass - 1)) & 0xFF
                    )
                }
                for index in starts.indices { starts[index] = 0 }
                for item in sorted { starts[digit(item) + 1] += 1 }
                if starts.contains(sorted.count) { continue }
                for index in 1..<starts.count { starts[index] += starts[index - 1] }
                for item in sorted {
                    let bucket = digit(item)
                    spare[starts[bucket]] = item
                    starts[bucket] += 1
                }
                swap(&sorted, &spare)
            }
            return sorted
        }

        /// The items of two sorted arrays in one sorted array.
        static func merged(_ a: [Placed], _ b: [Placed]) -> [Placed] {
            var result: [Placed] = []
            result.reserveCapacity(a.count + b.count)
            var i = 0, j = 0
            while i < a.count, j < b.count {
                if comesBefore(b[j], a[i]) {
                    result.append(b[j])
                    j += 1
                } else {
                    result.append(a[i])
                    i += 1
                }
            }
            result += a[i...]
            result += b[j...]
            return result
        }
    }
}
