import ToDoModel

/// A project or a tag and how many open items carry it (`todo projects`, `todo tags`).
public struct NameCount: Equatable, Sendable {
    /// As the first item that carries it spells it.
    public var name: String
    public var open: Int
}

extension ItemManager {
    /// Every project of the open items, and each project its parts belong to, with how many open
    /// items it holds: `home` counts the items of `home.garden`, as Taskwarrior's `task projects`
    /// does. In the order of their parts (a project's parts right after it), ignoring case. Only
    /// the first `countedDepth` levels above a project are counted apart, so that a name of
    /// thousands of parts costs time in proportion to its length.
    public func projectCounts() -> [NameCount] {
        var counts = NameCounts()
        for item in openStored {
            guard let project = item.project, !project.isEmpty else { continue }
            var end = project.startIndex, depth = 0
            while depth < Self.countedDepth, let dot = project[end...].firstIndex(of: ".") {
                counts.add(project[..<dot])
                end = project.index(after: dot)
                depth += 1
            }
            counts.add(Substring(project))
        }
        return counts.all.sorted { ProjectName.compare($0.name, $1.name) == .orderedAscending }
    }

    /// Every tag of the open items (`+home` and todo.txt's `@phone` alike), with how many open
    /// items carry it, by name ignoring case, as `todo list +home` finds them.
    public func tagCounts() -> [NameCount] {
        var counts = NameCounts()
        for item in openStored {
            for tag in item.tags { counts.add(Substring(tag)) }
        }
        return counts.all.sorted { ($0.name.lowercased(), $0.name) < ($1.name.lowercased(), $1.name) }
    }
}

extension ItemManager {
    /// How many levels of a project's parents `projectCounts` counts apart.
    static let countedDepth = 16
}

/// Counts of names told apart ignoring case.
private struct NameCounts {
    private var positions: [String: Int] = [:]
    private(set) var all: [NameCount] = []

    mutating func add(_ name: Substring) {
        let key = name.lowercased()
        if let position = positions[key] {
            all[position].open += 1
        } else {
            positions[key] = all.count
            all.append(NameCount(name: String(name), open: 1))
        }
    }
}
