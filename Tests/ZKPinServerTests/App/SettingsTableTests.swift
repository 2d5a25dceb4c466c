import Foundation
import Testing

@testable import ZKPinServer

/// The table of serve settings is well formed: what the flags, the environment and the config
/// file are made from can be made from it.
@Suite struct SettingsTableTests {
    @Test func namesAreUniqueFlagsAndVariables() {
        let names = ServeSettings.all.map { $0.name }
        #expect(names.count > 30 && Set(names).count == names.count, "\(names)")
        for setting in ServeSettings.all {
            #expect(setting.name.range(of: #"^[a-z][a-z0-9]*(-[a-z0-9]+)*$"#, options: .regularExpression) != nil, "\(setting.name)")
            #expect(setting.environmentVariable.range(of: #"^ZKPIN_[A-Z0-9_]+$"#, options: .regularExpression) != nil)
            #expect(!setting.help.hasSuffix(".") && !setting.help.isEmpty, "\(setting.name): the help ends without a full stop (one is added)")
            #expect(setting.name != "config", "--config names the file of settings")
        }
    }

    /// The default, as a flag would give it, is taken and gives the default value: `config
    /// check` shows that text, and `options()` reads it.
    @Test func everyDefaultReadsAsItself() async throws {
        for setting in ServeSettings.all {
            guard let text = setting.defaultText else { continue }
            var options = ServeOptions()
            #expect(setting.read(text, into: &options), "\(setting.name)'s default \(text) is refused")
        }
        let defaults = try await ServeConfiguration.resolve(flags: [:], configFile: nil, environment: [:]).options()
        let plain = ServeOptions()
        #expect(defaults.port == plain.port && defaults.otpTTL == plain.otpTTL && defaults.mailFrom == plain.mailFrom)
        #expect(defaults.permits == false && defaults.curve == nil && defaults.logLevel == .info && defaults.logFormat == .text)
    }

    /// Each whole-number setting refuses the numbers either side of its range, with the range
    /// in the error.
    @Test func rangesAreChecked() async throws {
        var checked = 0
        for setting in ServeSettings.all {
            guard let values = setting.values, let match = values.wholeMatch(of: #/(\d+) to (\d+)/#) else { continue }
            let (low, high) = (Int(match.1)!, Int(match.2)!)
            for (text, taken) in [(low, true), (high, true), (low - 1, false), (high + 1, false)].map({ (String($0.0), $0.1) }) {
                var options = ServeOptions()
                #expect(setting.read(text, into: &options) == taken, "\(setting.name) \(text)")
            }
            do {
                _ = try await ServeConfiguration.resolve(flags: [setting.name: String(high + 1)], configFile: nil, environment: [:]).options()
                Issue.record("\(setting.name) \(high + 1) was taken")
            } catch {
                #expect(error.description == "--\(setting.name) (\"\(high + 1)\") must be a whole number in \(low)...\(high)", "\(error)")
            }
            checked += 1
        }
        #expect(checked >= 15)
    }

    /// A setting set by its property name reads back; the others keep their defaults.
    @Test func optionsHoldWhatIsSet() {
        var options = ServeOptions()
        options.otpTTL = 30
        options.publicURL = "https://login.example.com"
        options.curve = .bn254cx
        #expect(options.otpTTL == 30 && options.publicURL == "https://login.example.com" && options.curve == .bn254cx)
        #expect(options.otpDigits == 6 && options.maxAttempts == 3)
        options.publicURL = nil
        options.curve = nil
        #expect(options.publicURL == nil && options.curve == nil)
    }
}
