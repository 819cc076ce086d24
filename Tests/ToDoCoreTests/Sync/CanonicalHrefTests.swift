import ToDoModel
import XCTest

@testable import ToDoCore

/// Servers spell one resource's address in different ways (some give whole URLs, `%7e` for `~`,
/// `a/./b`): todo keeps and compares RFC 3986's normal form, and follows only hrefs inside the
/// calendar, on its own server.
final class CanonicalHrefTests: XCTestCase {
    func test_spellingsOfOneAddress_becomeOne_andTheirMeaningStays() {
        for (href, canonical) in [
            ("/alice/tasks/abc@example.com.ics", "/alice/tasks/abc@example.com.ics"),
            // A reserved character escaped is not the character itself (RFC 3986 6.2.2.2).
            ("/alice/tasks/abc%40example.com.ics", "/alice/tasks/abc%40example.com.ics"),
            ("http://127.0.0.1:5232/alice/tasks/a.ics", "/alice/tasks/a.ics"),
            ("//127.0.0.1:5232/alice/tasks/a.ics", "/alice/tasks/a.ics"),
            (
                "https://cloud.example.com/remote.php/dav/calendars/alice/tasks/a.ics?x=1#y",
                "/remote.php/dav/calendars/alice/tasks/a.ics?x=1"
            ),
            ("/a/with space.ics", "/a/with%20space.ics"),
            ("/a/with%20space.ics", "/a/with%20space.ics"),
            ("/a/caf%c3%a9.ics", "/a/caf%C3%A9.ics"),
            ("/a/café.ics", "/a/caf%C3%A9.ics"),
            ("/a/%7euser%2Bplus+%3a%41", "/a/~user%2Bplus+%3AA"),
            ("/a/one%2ftwo%25%3F%23.ics", "/a/one%2Ftwo%25%3F%23.ics"),
            ("/a/100%.ics", "/a/100%25.ics"),
            ("/cal/./x/../y.ics", "/cal/y.ics"),
            ("/cal/%2E%2E/other/evil.ics", "/other/evil.ics"),
            ("/../../etc", "/etc")
        ] {
            XCTAssertEqual(CalDAVClient.canonicalHref(href), canonical, href)
            XCTAssertEqual(CalDAVClient.canonicalHref(canonical), canonical, "\(canonical) is canonical")
        }
    }

    func test_onlyAResourceInsideTheCalendar_onItsServer_isFollowed() {
        let calendar = WebAddress(string: "http://127.0.0.1:5232/alice/tasks/")!
        for (href, member) in [
            ("/alice/tasks/a.ics", "/alice/tasks/a.ics"),
            ("a.ics", "/alice/tasks/a.ics"),
            ("http://127.0.0.1:5232/alice/tasks/a.ics", "/alice/tasks/a.ics"),
            ("HTTP://127.0.0.1:5232/alice/tasks/a.ics", "/alice/tasks/a.ics"),
            ("/alice/tasks/a.ics?v=1", "/alice/tasks/a.ics?v=1"),
            ("/alice/tasks/sub/../b.ics", "/alice/tasks/b.ics"),
            ("//127.0.0.1:5232/alice/tasks/a.ics", "/alice/tasks/a.ics")
        ] {
            XCTAssertEqual(CalDAVClient.memberHref(href, of: calendar), member, href)
        }
        for href in [
            "//127.0.0.1:5233/alice/tasks/steal.ics", "http://evil.example/alice/tasks/a.ics",
            "https://127.0.0.1:5232/alice/tasks/a.ics",
            "http://bob@127.0.0.1:5232/alice/tasks/a.ics", "/alice/tasks/../other/evil.ics",
            "/alice/tasks%2F..%2Fother/x.ics",
            "/alice/tasks/", "/alice/tasks", "/alice/", "../other/x.ics", "mailto:a@b", "/alice/taskswrong/x.ics"
        ] {
            XCTAssertNil(CalDAVClient.memberHref(href, of: calendar), href)
        }
        XCTAssertEqual(CalDAVClient.place(of: "/alice/tasks", in: calendar), .calendar)
        XCTAssertEqual(CalDAVClient.place(of: "http://127.0.0.1:5232/alice/tasks/", in: calendar), .calendar)
        XCTAssertEqual(
            CalDAVClient.place(of: "//127.0.0.1:1/alice/tasks/", in: calendar), .outside("//127.0.0.1:1/alice/tasks/"))
        XCTAssertEqual(CalDAVClient.memberHref("/a.ics", of: WebAddress(string: "https://h/")!), "/a.ics")
        XCTAssertEqual(CalDAVClient.memberHref("https://h:443/a.ics", of: WebAddress(string: "https://h/")!), "/a.ics")
        XCTAssertEqual(CalDAVClient.memberHref("x.ics", of: WebAddress(string: "https://[::1]:8443/c/")!), "/c/x.ics")
        XCTAssertEqual(
            CalDAVClient.memberHref("https://[::1]:8443/c/x.ics", of: WebAddress(string: "https://[::1]:8443/c/")!),
            "/c/x.ics")
    }

    func test_aServersRespelling_pairsOneRecordWithOneResource_only() {
        let base = ToDoItem(title: "A")
        let records = [SyncPlan.Record(id: base.id, href: "/c/a@b.ics", etag: "1", base: base)]
        XCTAssertEqual(
            SyncRun.respellings(of: records, listed: ["/c/a%40b.ics"], excluding: []), ["/c/a@b.ics": "/c/a%40b.ics"])
        XCTAssertEqual(
            SyncRun.respellings(of: records, listed: ["/c/a%40b.ics", "/c/a@b.ics"], excluding: []), [:],
            "two resources, none respelled")
        XCTAssertEqual(
            SyncRun.respellings(of: records, listed: ["/c/a%40b.ics"], excluding: [], sameTask: { _, _ in false }), [:])
    }
}
