#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The rules of projects, Taskwarrior's: a name's parts are separated by dots, and `work.admin`
/// is part of `work`.
public enum ProjectName {
    /// Whether the project `filter` names holds `project`: it is that project or one of its parts,
    /// ignoring case (`home` holds `Home.garden`, not `homework`).
    public static func contains(_ filter: String, _ project: String?) -> Bool {
        guard let project else { return false }
        let filter = Array(filter.lowercased().utf8), name = Array(project.lowercased().utf8)
        guard name.starts(with: filter) else { return false }
        return name.count == filter.count || filter.isEmpty || name[filter.count] == UInt8(ascii: ".")
    }

    /// Projects in the order of their parts, each part ignoring case: a project's parts right
    /// after it.
    public static func compare(_ left: String, _ right: String) -> ComparisonResult {
        let leftParts = left.lowercased().split(separator: ".", omittingEmptySubsequences: false)
        let rightParts = right.lowercased().split(separator: ".", omittingEmptySubsequences: false)
        for (a, b) in zip(leftParts, rightParts) where a != b { return a < b ? .orderedAscending : .orderedDescending }
        return leftParts.count < rightParts.count
            ? .orderedAscending : leftParts.count > rightParts.count ? .orderedDescending : .orderedSame
    }
}
