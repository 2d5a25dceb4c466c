import Foundation
import ZKPinClient
import ZKPinProtocol
import ZKPinWire

/// `zkpin load`: N registered identities log in concurrently through the HTTP API (pass 1,
/// pass 2 without an access code that finishes the login, or pass 2 and authenticate) for a fixed time; each client starts its next
/// login as soon as the last one ended. The clients' own crypto runs in this process, so on
/// one machine the driver competes with the server for the cores, as real clients would not.
public struct LoadDriver: Sendable {
    public struct Options: Sendable {
        /// Servers to log in through (clients are spread over them in turn); registration
        /// goes through the first.
        public var servers: [String]
        /// The first server's outbox folder, where the activation mails land.
        public var outbox: String
        public var clients: Int = 10
        public var duration: Double = 10
        public var pin: Int = 1234
        /// Server processes on this machine whose CPU time over the login phase is reported
        /// per login (`LoadReport.serverCPUMillisecondsPerLogin`).
        public var serverPIDs: [Int32] = []
        /// Pass 2 finishes the login itself (`complete`: two requests a login); false: pass 2
        /// and then `/rps/authenticate`, as M-Pin clients do.
        public var completeInPass2 = true
        public init(servers: [String], outbox: String) { self.servers = servers; self.outbox = outbox }
    }

    public let options: Options
    let transport: PooledHTTPTransport

    public init(options: Options) {
        self.options = options
        transport = PooledHTTPTransport(connections: options.clients)
    }

    /// Registers `clients` identities; `progress` gets the number done so far.
    public func registerIdentities(progress: @Sendable (Int) -> Void = { _ in }) async throws(ClientError) -> [LoadIdentity] {
        let connection = RPSConnection(transport: transport)
        let service = try await Discovery(connection: connection).discover(server: options.servers[0])
        let registrar = LoadRegistrar(connection: connection, service: service, outbox: OutboxReader(directory: options.outbox))
        // Unique per run: the server limits registrations per e-mail address.
        let run = String(UInt32.random(in: 0...UInt32.max), radix: 36)
        let pin = options.pin
        var identities: [LoadIdentity] = []
        do {
            try await withThrowingTaskGroup(of: LoadIdentity.self) { group in
                var next = 0
                // A few at a time: registration is a setup step, not what is measured.
                func add() {
                    let i = next
                    next += 1
                    group.addTask { try await registrar.register(email: "load-\(run)-\(i)@example.com", pin: pin) }
                }
                for _ in 0..<min(8, options.clients) { add() }
                while let identity = try await group.next() {
                    identities.append(identity)
                    progress(identities.count)
                    if next < options.clients { add() }
                }
            }
        } catch let error as ClientError { throw error } catch {
            throw .cancelled("registration stopped: \(error)")
        }
        return identities
    }

    /// Runs the logins for `options.duration` seconds.
    public func run(_ identities: [LoadIdentity]) async throws(ClientError) -> LoadReport {
        let connection = RPSConnection(transport: transport)
        var services: [Service] = []
        for server in options.servers { services.append(try await Discovery(connection: connection).discover(server: server)) }
        let clock = ContinuousClock()
        let cpuBefore = options.serverPIDs.map { ProcessCPU.seconds(pid: $0) }
        let start = clock.now
        let deadline = start + .milliseconds(Int(options.duration * 1000))
        let samples = await withTaskGroup(of: [LoadSample].self) { group in
            let complete = options.completeInPass2
            for (index, identity) in identities.enumerated() {
                let service = services[index % services.count]
                group.addTask {
                    var mine: [LoadSample] = []
                    // The identity's own work (its hash to G1, PIN, x·A) once, not per login.
                    let repeated = Self.repeatablePass1(identity, service: service)
                    while clock.now < deadline {
                        let began = clock.now
                        let outcome = await Self.login(
                            identity, service: service, connection: connection, repeating: repeated, complete: complete)
                        mine.append(LoadSample(seconds: Self.seconds(clock.now - began), outcome: outcome))
                    }
                    return mine
                }
            }
            return await group.reduce(into: [LoadSample]()) { $0 += $1 }
        }
        let elapsed = Self.seconds(clock.now - start)
        let cpuAfter = options.serverPIDs.map { ProcessCPU.seconds(pid: $0) }
        var serverCPU: Double? = nil
        if !options.serverPIDs.isEmpty {
            serverCPU = zip(cpuBefore, cpuAfter).reduce(0.0) { total, pair in
                guard let total, let before = pair.0, let after = pair.1 else { return nil }
                return total + (after - before)
            }
        }
        return LoadReport(
            samples: samples, elapsed: elapsed, clients: identities.count,
            servers: options.servers.count, serverCPUSeconds: serverCPU)
    }

    public func shutdown() async { await transport.shutdown() }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    /// One pass 1 that every login of `identity` repeats (same x, same U), so that the driver's
    /// per-login crypto is pass 2's multiplication only and one driver core can keep a server
    /// core busy. Only without time permits (U then does not change with the day). It gives
    /// SEC away to whoever sees two of these logins: a load test's throwaway identities only.
    static func repeatablePass1(_ identity: LoadIdentity, service: Service) -> ClientPass1State? {
        guard !service.settings.usePermits else { return nil }
        return try? service.curve.suite.clientPass1(id: identity.id, token: identity.token, pin: identity.pin, timePermit: nil, date: 0)
    }

    /// One login; nil on success, else the kind of failure (status and error code, or the
    /// network trouble). With `repeating`, pass 1 is that one's (see `repeatablePass1`).
    static func login(
        _ identity: LoadIdentity, service: Service, connection: RPSConnection, repeating: ClientPass1State? = nil, complete: Bool = true
    ) async -> String? {
        do {
            let suite = service.curve.suite
            var permit: (date: Int, point: [UInt8])? = nil
            if service.settings.usePermits {
                let share1 = try await connection.get(service.timePermitURL(mpinId: identity.mpinId))
                if let failure = kind(share1) { return "timePermit " + failure }
                let p1 = try share1.decode(TimePermitResponse.self)
                let share2 = try await connection.get(service.dta2URL("timePermit", params: p1.params ?? ""))
                if let failure = kind(share2) { return "dta2 timePermit " + failure }
                let p2 = try share2.decode(TimePermitResponse.self)
                guard let a = Hex.decode(p1.timePermit), let b = Hex.decode(p2.timePermit),
                    let point = try? suite.addG1(a, b)
                else { return "bad time permit" }
                permit = (p1.date, point)
            }
            guard
                let state = repeating?.copyReusingX()
                    ?? (try? suite.clientPass1(
                        id: identity.id, token: identity.token, pin: identity.pin,
                        timePermit: permit?.point, date: permit?.date ?? 0))
            else { return "client pass 1 failed" }
            defer { state.wipe() }
            let pass1 = try await connection.send(
                .post, service.pass1URL,
                Pass1Request(
                    mpinId: identity.mpinId, u: Hex.encode(state.u), ut: state.ut.map { Hex.encode($0) }))
            if let failure = kind(pass1) { return "pass1 " + failure }
            let challenge = try pass1.decode(Pass1Response.self)
            guard let y = Hex.decode(challenge.y), let v = try? suite.clientPass2(state, y: y) else { return "bad y from pass1" }
            let pass2 = try await connection.send(
                .post, service.pass2URL,
                Pass2Request(
                    mpinId: identity.mpinId, v: Hex.encode(v), wid: "0", challenge: challenge.challenge, complete: complete ? true : nil))
            if let failure = kind(pass2) { return "pass2 " + failure }
            if complete { return (try? pass2.decode(AuthenticateResponse.self)) != nil ? nil : "pass2 did not finish the login" }
            let ott = try pass2.decode(Pass2Response.self)
            let done = try await connection.send(.post, service.authenticateURL, AuthenticateRequest(authOTT: ott.authOTT))
            if let failure = kind(done) { return "authenticate " + failure }
            return nil
        } catch {
            switch error {
            case .networkError: return "network error"
            case .timeout: return "timeout"
            default: return "unexpected answer"
            }
        }
    }

    static func kind(_ answer: RPSConnection.Answer) -> String? {
        guard !answer.isSuccess else { return nil }
        return "HTTP \(answer.status)" + (answer.error.map { " \($0.error)" } ?? "")
    }
}

struct LoadSample: Sendable {
    var seconds: Double
    /// nil: the login succeeded.
    var outcome: String?
}
