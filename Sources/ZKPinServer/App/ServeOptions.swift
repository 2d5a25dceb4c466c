import ZKPinProtocol

/// What `zkpin-server serve` is told (and what tests and tools pass to `ZKPinServerApp`): the
/// value of every setting of `ServeSettings`, read and set by the property name it has there
/// (`options.otpTTL = 30`), its default until set.
@dynamicMemberLookup
public struct ServeOptions: Sendable {
    /// The settings set, by name; the others have their default.
    private var values: [String: any Sendable] = [:]
    /// The client command the login page tells people to run (`zkpin-server demo
    /// --client-command`: the demo's client is not on PATH). Not a serve setting.
    public var clientCommand = "zkpin"

    public init() {}

    public subscript<Value>(dynamicMember setting: KeyPath<ServeSettings, ServeSetting<Value>>) -> Value {
        get { self[ServeSettings.table[keyPath: setting]] }
        set { self[ServeSettings.table[keyPath: setting]] = newValue }
    }

    subscript<Value>(setting: ServeSetting<Value>) -> Value {
        // Only this setting's own subscript stores under its name (names are unique: SettingsTableTests).
        get { values[setting.name].map { $0 as! Value } ?? setting.defaultValue }
        set { values[setting.name] = newValue }
    }
}

/// What `zkpin-server dta` is told.
public struct DTAOptions: Sendable {
    public var host = "127.0.0.1"
    public var port = 8081
    public var dataDirectory = "./zkpin-dta2"
    public var curve: CurveID = .bls12_381
    /// `--cors-origin`: the relying party's origin (`https://login.example.com`) whose web app
    /// may read the shares from the browser; nil answers no origin.
    public var corsOrigin: String?
    public var keyFile: String
    public init(keyFile: String) { self.keyFile = keyFile }
}
