@testable import ToDoCore
import XCTest

/// Servers spell one resource's address in different ways (Radicale writes `%40` where SabreDAV
/// writes `@`; some give whole URLs): todo keeps and compares one spelling.
final class CanonicalHrefTests: XCTestCase {
    func test_spellingsOfOneAddress_becomeOne_andTheirMeaningStays() {
        for (href, canonical) in [
            ("/alice/tasks/abc@example.com.ics", "/alice/tasks/abc@example.com.ics"),
            ("/alice/tasks/abc%40example.com.ics", "/alice/tasks/abc@example.com.ics"),
            ("http://127.0.0.1:5232/alice/tasks/a.ics", "/alice/tasks/a.ics"),
            ("https://cloud.example.com/remote.php/dav/calendars/alice/tasks/a.ics?x=1#y", "/remote.php/dav/calendars/alice/tasks/a.ics"),
            ("/a/with space.ics", "/a/with%20space.ics"),
            ("/a/with%20space.ics", "/a/with%20space.ics"),
            ("/a/caf%c3%a9.ics", "/a/caf%C3%A9.ics"),
            ("/a/café.ics", "/a/caf%C3%A9.ics"),
            ("/a/%7euser%2Bplus+%3a", "/a/~user+plus+:"),
            // An escaped slash, percent sign, question mark or hash is not the character itself.
            ("/a/one%2ftwo%25%3F%23.ics", "/a/one%2Ftwo%25%3F%23.ics"),
            ("/a/100%.ics", "/a/100%25.ics"),
        ] {
            XCTAssertEqual(CalDAVClient.canonicalHref(href), canonical, href)
            XCTAssertEqual(CalDAVClient.canonicalHref(canonical), canonical, "\(canonical) is canonical")
        }
    }
}
