import Testing

@testable import ZKPinServer

/// The allow-list of push service origins: the setting, its errors, and endpoint checks.
@Suite struct PushServicesTests {
    @Test func theDefaultListIsTheFourBrowsersPushServices() throws {
        let list = PushServices.default
        #expect(list.description == PushServices.defaultSetting)
        for endpoint in [
            "https://fcm.googleapis.com/fcm/send/abc", "https://updates.push.services.mozilla.com/wpush/v2/x",
            "https://web.push.apple.com/QGu", "https://wns2-par02p.notify.windows.com/w/?token=AQE",
            "https://a.b.notify.windows.com/w"
        ] {
            #expect(throws: Never.self, "\(endpoint)") { _ = try list.check(endpoint: endpoint) }
        }
        let refused: [(String, PushServices.Refusal)] = [
            ("https://notify.windows.com/w", .notAllowed(PushOrigin(scheme: "https", host: "notify.windows.com"))),
            ("https://evilnotify.windows.com/w", .notAllowed(PushOrigin(scheme: "https", host: "evilnotify.windows.com"))),
            ("https://fcm.googleapis.com:8443/x", .notAllowed(PushOrigin(scheme: "https", host: "fcm.googleapis.com", port: 8443))),
            ("https://fcm.googleapis.com.evil.example/x", .notAllowed(PushOrigin(scheme: "https", host: "fcm.googleapis.com.evil.example"))),
            ("http://fcm.googleapis.com/x", .notHTTPS(PushOrigin(scheme: "http", host: "fcm.googleapis.com"))),
            ("http://127.0.0.1:8080/push/x", .notAllowed(PushOrigin(scheme: "http", host: "127.0.0.1", port: 8080))),
            ("https://user:pw@fcm.googleapis.com/x", .credentials),
            ("fcm.googleapis.com/x", .notAURL("fcm.googleapis.com/x")),
            ("file:///etc/passwd", .notAURL("file:///etc/passwd"))
        ]
        for (endpoint, refusal) in refused {
            #expect(throws: refusal, "\(endpoint)") { _ = try list.check(endpoint: endpoint) }
        }
    }

    @Test func loopbackHTTPOnlyWhenListed() throws {
        let list = try PushServices(parsing: " http://127.0.0.1:8080 , https://push.example.net, http://[::1]:9,")
        #expect(list.description == "http://127.0.0.1:8080,https://push.example.net,http://[::1]:9")
        #expect(try list.check(endpoint: "http://127.0.0.1:8080/push/x") == PushOrigin(scheme: "http", host: "127.0.0.1", port: 8080))
        _ = try list.check(endpoint: "http://[::1]:9/push/x")
        #expect(throws: PushServices.Refusal.notAllowed(PushOrigin(scheme: "http", host: "127.0.0.1", port: 8081))) {
            _ = try list.check(endpoint: "http://127.0.0.1:8081/push/x")
        }
        // Even a list built by hand never lets the server call plain http off loopback.
        let handMade = PushServices(rules: [.origin(PushOrigin(scheme: "http", host: "10.0.0.1"))])
        #expect(throws: PushServices.Refusal.notHTTPS(PushOrigin(scheme: "http", host: "10.0.0.1"))) {
            _ = try handMade.check(endpoint: "http://10.0.0.1/push")
        }
    }

    @Test func badSettingsAreClearErrors() throws {
        let cases: [(String, PushServices.SettingError)] = [
            ("", .empty), (" , ", .empty),
            ("https://fcm.googleapis.com/fcm/send", .notAnOrigin("https://fcm.googleapis.com/fcm/send")),
            ("fcm.googleapis.com", .notAnOrigin("fcm.googleapis.com")),
            ("https://u@fcm.googleapis.com", .notAnOrigin("https://u@fcm.googleapis.com")),
            ("https://fcm.googleapis.com?x", .notAnOrigin("https://fcm.googleapis.com?x")),
            ("ftp://files.example.com", .notAnOrigin("ftp://files.example.com")),
            ("http://push.example.net", .notHTTPS("http://push.example.net")),
            ("http://localhost:8080", .notHTTPS("http://localhost:8080")),
            ("https://*.com", .badWildcard("https://*.com")),
            ("https://a.*.example.com", .badWildcard("https://a.*.example.com")),
            ("https://*push.example.com", .badWildcard("https://*push.example.com")),
            ("http://*.example.com", .badWildcard("http://*.example.com"))
        ]
        for (setting, error) in cases {
            #expect(throws: error, "\(setting)") { try PushServices(parsing: setting) }
        }
        #expect(
            PushServices.SettingError.notHTTPS("http://push.example.net").description
                == "push service 'http://push.example.net' is not https: only https, or http on a loopback address (127.0.0.1, [::1]) for tests")
        // A trailing slash is still an origin.
        #expect(try PushServices(parsing: "https://fcm.googleapis.com/").description == "https://fcm.googleapis.com")
    }
}
