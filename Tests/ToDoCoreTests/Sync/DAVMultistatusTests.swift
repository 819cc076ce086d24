import Foundation
import XCTest

@testable import ToDoCore

/// WebDAV answers as Radicale 3.9.0 and Xandikos 0.4.10 gave them on 127.0.0.1 (byte for byte: the
/// same resources, one server writing a default namespace, the other prefixes), and the XML they
/// may hold.
final class DAVMultistatusTests: XCTestCase {
    private let radicalePropfind = #"""
        <?xml version='1.0' encoding='utf-8'?>
        <multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:CS="http://calendarserver.org/ns/"><response><href>/alice/</href><propstat><prop><resourcetype><principal /><collection /></resourcetype></prop><status>HTTP/1.1 200 OK</status></propstat><propstat><prop><displayname /><C:supported-calendar-component-set /><sync-token /><CS:getctag /></prop><status>HTTP/1.1 404 Not Found</status></propstat></response><response><href>/alice/tasks/</href><propstat><prop><resourcetype><C:calendar /><collection /></resourcetype><displayname>Tasks</displayname><C:supported-calendar-component-set><C:comp name="VTODO" /></C:supported-calendar-component-set><sync-token>http://radicale.org/ns/sync/e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855</sync-token><CS:getctag>"e8253faa45e08388c196d20b303665a885a1d78b6f0dcfd2cf9772841f882c3e"</CS:getctag></prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>
        """#

    private let radicaleMultiget = #"""
        <?xml version='1.0' encoding='utf-8'?>
        <multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><response><href>/alice/tasks/nope.ics</href><status>HTTP/1.1 404 Not Found</status></response><response><href>/alice/tasks/a1.ics</href><propstat><prop><getetag>"69cf2f31428f980261dbaf2ae9edf3750a32310992d9847e97e911f7f28fe993"</getetag><C:calendar-data>BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//test//EN
        BEGIN:VTODO
        DTSTAMP:20261124T060031Z
        SUMMARY:Café &amp; &lt;tea&gt;
        UID:a1
        END:VTODO
        END:VCALENDAR
        </C:calendar-data></prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>
        """#

    private let radicaleSyncDeleted = #"""
        <?xml version='1.0' encoding='utf-8'?>
        <multistatus xmlns="DAV:"><sync-token>http://radicale.org/ns/sync/8b7c2c5a25e030bbf28eaed7cd610ca0d7ceb45b59af557a9cb2f6e7738a9881</sync-token><response><href>/alice/tasks/a1.ics</href><status>HTTP/1.1 404 Not Found</status></response></multistatus>
        """#

    private let xandikosPropfind = #"""
        <ns0:multistatus xmlns:ns0="DAV:" xmlns:ns1="urn:ietf:params:xml:ns:caldav"><ns0:response><ns0:href>/user/calendars/</ns0:href><ns0:propstat><ns0:status>HTTP/1.1 200 OK</ns0:status><ns0:prop><ns0:resourcetype><ns0:collection /></ns0:resourcetype><ns0:displayname>calendars</ns0:displayname><ns0:sync-token>4b825dc642cb6eb9a060e54bf8d69288fbee4904</ns0:sync-token></ns0:prop></ns0:propstat><ns0:propstat><ns0:status>HTTP/1.1 404 Not Found</ns0:status><ns0:prop><ns1:supported-calendar-component-set /></ns0:prop></ns0:propstat></ns0:response><ns0:response><ns0:href>/user/calendars/calendar/</ns0:href><ns0:propstat><ns0:status>HTTP/1.1 200 OK</ns0:status><ns0:prop><ns0:resourcetype><ns0:collection /><ns1:calendar /></ns0:resourcetype><ns0:displayname>calendar</ns0:displayname><ns1:supported-calendar-component-set><ns1:comp name="VEVENT" /><ns1:comp name="VTODO" /><ns1:comp name="VJOURNAL" /><ns1:comp name="VFREEBUSY" /><ns1:comp name="VAVAILABILITY" /></ns1:supported-calendar-component-set><ns0:sync-token>ae4423fea231573dd53ab2567fdc26cd3f98a7ca</ns0:sync-token></ns0:prop></ns0:propstat></ns0:response></ns0:multistatus>
        """#

    private let xandikosMultiget = #"""
        <ns0:multistatus xmlns:ns0="DAV:" xmlns:ns1="urn:ietf:params:xml:ns:caldav"><ns0:response><ns0:href>/user/calendars/calendar/a1.ics</ns0:href><ns0:propstat><ns0:status>HTTP/1.1 200 OK</ns0:status><ns0:prop><ns0:getetag>"aebc58112921a08d0099f50f6ee9d502acb30555"</ns0:getetag><ns1:calendar-data>BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//test//EN
        BEGIN:VTODO
        SUMMARY:Café &amp; &lt;tea&gt;
        UID:a1
        END:VTODO
        END:VCALENDAR
        </ns1:calendar-data></ns0:prop></ns0:propstat></ns0:response><ns0:response><ns0:href>/user/calendars/calendar/nope.ics</ns0:href><ns0:status>HTTP/1.1 404 Not Found</ns0:status></ns0:response></ns0:multistatus>
        """#

    private let xandikosSync = #"""
        <ns0:multistatus xmlns:ns0="DAV:"><ns0:response><ns0:href>/user/calendars/calendar/a1.ics</ns0:href><ns0:propstat><ns0:status>HTTP/1.1 200 OK</ns0:status><ns0:prop><ns0:getetag>"aebc58112921a08d0099f50f6ee9d502acb30555"</ns0:getetag></ns0:prop></ns0:propstat></ns0:response><ns0:sync-token>ba4f51f4f1b5d88976fb9fc25113d2a3ee2576e2</ns0:sync-token></ns0:multistatus>
        """#
    private func parse(_ text: String) throws -> DAVMultistatus {
        try DAVMultistatus(parsing: Array(text.utf8))
    }

    /// A calendar home listed: the same answer, written with a default namespace or with prefixes.
    func test_propfind_readsTheCalendarsOfAHome_fromEitherServer() throws {
        let dav = DAVNamespace.dav, calDAV = DAVNamespace.calDAV
        let radicale = try parse(radicalePropfind)
        XCTAssertEqual(radicale.responses.map(\.href), ["/alice/", "/alice/tasks/"])
        // Only the properties todo uses are kept: Radicale's sync-token and getctag are read past.
        XCTAssertEqual(radicale.responses[0].missing.map(\.name), ["displayname", "supported-calendar-component-set"])
        let tasks = radicale.responses[1]
        XCTAssertNotNil(tasks.property(dav, "resourcetype")?.child(calDAV, "calendar"))
        XCTAssertEqual(tasks.text(dav, "displayname"), "Tasks")
        XCTAssertEqual(
            tasks.property(calDAV, "supported-calendar-component-set")?.children(calDAV, "comp").compactMap {
                $0.attributes["name"]
            }, ["VTODO"])
        XCTAssertNil(tasks.text(dav, "sync-token"))

        let xandikos = try parse(xandikosPropfind)
        XCTAssertEqual(xandikos.responses.map(\.href), ["/user/calendars/", "/user/calendars/calendar/"])
        let calendar = xandikos.responses[1]
        XCTAssertNotNil(calendar.property(dav, "resourcetype")?.child(calDAV, "calendar"))
        XCTAssertEqual(
            calendar.property(calDAV, "supported-calendar-component-set")?.children(calDAV, "comp").compactMap {
                $0.attributes["name"]
            },
            ["VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VAVAILABILITY"])
        XCTAssertEqual(xandikos.responses[0].missing.map(\.name), ["supported-calendar-component-set"])
    }

    /// A multiget gives each resource's etag and calendar data, references resolved, and a 404 of
    /// its own for an href that is not there.
    func test_multiget_readsCalendarDataAndMissingResources() throws {
        for text in [radicaleMultiget, xandikosMultiget] {
            let answer = try parse(text)
            let found = try XCTUnwrap(answer.responses.first { $0.status == nil })
            XCTAssertTrue(found.href.hasSuffix("/a1.ics"))
            XCTAssertTrue(found.text(DAVNamespace.dav, "getetag")?.hasPrefix("\"") ?? false)
            let data = try XCTUnwrap(found.property(DAVNamespace.calDAV, "calendar-data")?.text)
            XCTAssertTrue(data.contains("\nSUMMARY:Café & <tea>\nUID:a1\n"), data)
            XCTAssertEqual(answer.responses.first { $0.status != nil }?.status, 404)
        }
    }

    /// A sync-collection report gives the new token, changed resources with their etags, and
    /// deleted ones as 404s.
    func test_syncCollection_readsTheTokenChangesAndDeletions() throws {
        let deleted = try parse(radicaleSyncDeleted)
        XCTAssertEqual(
            deleted.syncToken,
            "http://radicale.org/ns/sync/8b7c2c5a25e030bbf28eaed7cd610ca0d7ceb45b59af557a9cb2f6e7738a9881")
        XCTAssertEqual(
            deleted.responses,
            [DAVMultistatus.Response(href: "/alice/tasks/a1.ics", status: 404, properties: [], missing: [])])
        let changed = try parse(xandikosSync)
        XCTAssertEqual(changed.syncToken, "ba4f51f4f1b5d88976fb9fc25113d2a3ee2576e2")
        XCTAssertEqual(
            changed.responses.map { $0.text(DAVNamespace.dav, "getetag") },
            ["\"aebc58112921a08d0099f50f6ee9d502acb30555\""])
    }

    /// What else XML may hold: comments, CDATA, character references, a namespace redeclared
    /// inside, single quotes, white space around an href.
    func test_xml_commentsCDATAReferencesAndScopedNamespaces() throws {
        let text = """
            <?xml version="1.0"?>
            <!-- a server's comment -->
            <!DOCTYPE multistatus>
            <D:multistatus xmlns:D='DAV:'>
              <D:response>
                <D:href>
                  /cal/x%20y.ics
                </D:href>
                <D:propstat>
                  <D:prop><D:getetag xmlns:D="urn:other">not DAV's</D:getetag></D:prop>
                  <D:status>HTTP/1.1 200 OK</D:status>
                </D:propstat>
                <D:propstat>
                  <D:prop><D:getetag>&quot;e1&quot;</D:getetag><C:calendar-data xmlns:C="urn:ietf:params:xml:ns:caldav"><![CDATA[BEGIN:VCALENDAR & <more>]]>&#x1F602;&#233;</C:calendar-data></D:prop>
                  <D:status>HTTP/1.1 200 OK</D:status>
                </D:propstat>
              </D:response>
            </D:multistatus>
            """
        let response = try XCTUnwrap(parse(text).responses.first)
        XCTAssertEqual(response.href, "/cal/x%20y.ics")
        XCTAssertEqual(response.text(DAVNamespace.dav, "getetag"), "\"e1\"")
        XCTAssertNil(response.property("urn:other", "getetag"), "not a property todo uses")
        XCTAssertEqual(response.property(DAVNamespace.calDAV, "calendar-data")?.text, "BEGIN:VCALENDAR & <more>😂é")
    }

    /// An answer is read for what todo uses: a quarter of a million elements it does not use (inside a
    /// property, beside a response) are checked and read past, not kept as a tree.
    func test_whatTodoDoesNotUse_isReadPast_notKept() throws {
        let junk = String(repeating: "<x:junk a='1'>text</x:junk>", count: 50_000)
        let text =
            #"<D:multistatus xmlns:D="DAV:" xmlns:x="urn:x"><D:response><D:href>/c/a.ics</D:href>\#(junk)"#
            + #"<D:propstat><D:prop><D:getetag>"e1<x:inside>\#(junk)</x:inside>"</D:getetag><x:big>\#(junk)</x:big></D:prop>"#
            + "<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>\(junk)<D:sync-token>t1</D:sync-token></D:multistatus>"
        let parsed = try parse(text)
        XCTAssertEqual(parsed.responses.map(\.href), ["/c/a.ics"])
        XCTAssertEqual(parsed.responses[0].properties.map(\.name), ["getetag"])
        XCTAssertEqual(
            parsed.responses[0].properties[0].children.count, 0, "only what todo reads of a property's contents is kept"
        )
        XCTAssertEqual(parsed.syncToken, "t1")
        XCTAssertThrowsError(
            try parse(text.replacingOccurrences(of: "</x:big>", with: "</x:bog>")), "what is read past is still checked"
        )
    }

    /// Bytes that are not such a document are refused, naming the byte; nothing traps.
    func test_xml_thatCannotBeRead_isRefusedNamingTheByte() {
        let cases: [(String, String)] = [
            ("", "the document has no element at byte 0"),
            ("<a><b></a>", "expected </b> at byte 9"),
            ("<a>", "<a> is never closed at byte 3"),
            ("<x:a/>", "the prefix x is not declared at byte 6"),
            ("<a/><b/>", "more after the root element at byte 4"),
            ("<!DOCTYPE a [<!ENTITY x \"y\">]><a/>", "a DOCTYPE with declarations is not read at byte 12"),
            ("<a>&bogus;</a>", "&bogus; is not a reference todo reads at byte 3"),
            ("<a b=c/>", "expected a quoted value at byte 5"),
            ("<a xmlns=\"urn:x\"/>", "expected a DAV: multistatus, found <a> in urn:x at byte 0")
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try parse(text), text) {
                XCTAssertEqual(($0 as? XMLSyntaxError)?.description, expected, text)
            }
        }
        // Text that is not UTF-8 (one garbled task) is read as Windows-1252, as an import reads it.
        XCTAssertEqual(
            try XMLReader.parse([0x3C, 0x61, 0x3E, 0x43, 0x61, 0x66, 0xE9, 0x80, 0x3C, 0x2F, 0x61, 0x3E]).text, "Café€")
        XCTAssertThrowsError(try XMLReader.parse([0x3C, 0x61, 0xFF, 0x3E, 0x3C, 0x2F, 0x61, 0xFF, 0x3E])) {
            XCTAssertEqual(($0 as? XMLSyntaxError)?.reason, "expected a name")
        }
        let deep = String(repeating: "<a>", count: 10_000) + String(repeating: "</a>", count: 10_000)
        XCTAssertThrowsError(try XMLReader.parse(Array(deep.utf8))) {
            XCTAssertEqual(($0 as? XMLSyntaxError)?.reason, "elements are nested more than 200 deep")
        }
    }
}
