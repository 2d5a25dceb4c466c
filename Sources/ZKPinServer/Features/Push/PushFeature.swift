import Logging

/// The Push feature's parts, built once from the relying party: the VAPID key (created in the
/// data folder with the other keys), the subscriptions' service, the notifier that turns
/// person events into queued messages, and the deliverer that sends them.
final class PushFeature: Sendable {
    let options: PushOptions
    let sender: PushSender
    let subscriptions: PushSubscriptions
    let notifier: PushNotifier
    let deliverer: PushDeliverer
    let liveStream: PushLiveStream
    let signIns: PushSignIns
    let metrics: PushMetrics

    init(rp: RelyingParty, options: PushOptions, vapid: VAPIDKey, logger: Logger) {
        self.options = options
        let metrics = PushMetrics(rp.metrics)
        let wake = Wakeup()
        let live = PushBroadcast()
        let sender = PushSender(services: options.services, vapid: vapid, subject: options.subject, callTimeout: .seconds(Int64(options.sendTimeout)))
        self.metrics = metrics
        self.sender = sender
        subscriptions = PushSubscriptions(
            options: options, storage: rp.storage, limiter: rp.limiter, links: rp.links, audit: rp.audit, clock: rp.clock)
        notifier = PushNotifier(storage: rp.storage, clock: rp.clock, metrics: metrics, wake: wake, live: live, logger: logger)
        liveStream = PushLiveStream(subscriptions: subscriptions, storage: rp.storage, clock: rp.clock, live: live)
        deliverer = PushDeliverer(
            storage: rp.storage, sender: sender, options: options, clock: rp.clock, metrics: metrics, audit: rp.audit, logger: logger,
            wake: wake)
        signIns = PushSignIns(
            config: rp.config, access: rp.access, subscriptions: subscriptions, notifier: notifier, storage: rp.storage, limiter: rp.limiter,
            audit: rp.audit, clock: rp.clock, metrics: metrics, notMe: rp.notMe)
        let notifier = self.notifier
        rp.events.listen { event in await notifier.handle(event) }
    }
}
