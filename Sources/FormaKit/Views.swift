#if canImport(SwiftUI) && canImport(WebKit)
import SwiftUI
import WebKit

/// The embed page's web view, for apps that want to drive it: reload, go back, the current URL, and the page's
/// localStorage (seed 001's web view state).
@MainActor
public final class FormaWebViewState: ObservableObject {
    @Published public fileprivate(set) var currentURL: URL?
    @Published public fileprivate(set) var canGoBack = false
    weak var webView: WKWebView?

    public init() {}

    public func reload() { webView?.reload() }

    public func goBack() { webView?.goBack() }

    /// Sets `key` in the page's localStorage; key and value are JSON-encoded, never spliced into the script.
    public func setLocalStorage(_ value: String, forKey key: String) async throws {
        _ = try await evaluate("localStorage.setItem(\(try Self.literal(key)), \(try Self.literal(value)))")
    }

    public func localStorage(forKey key: String) async throws -> String? {
        try await evaluate("localStorage.getItem(\(try Self.literal(key)))") as? String
    }

    public func clearLocalStorage() async throws {
        _ = try await evaluate("localStorage.clear()")
    }

    private func evaluate(_ script: String) async throws -> Any? {
        guard let webView else { throw FormaError.invalidArgument(field: "webView", message: "the view is not shown") }
        return try await webView.evaluateJavaScript(script)
    }

    static func literal(_ text: String) throws -> String {
        String(decoding: try JSONEncoder().encode([text]), as: UTF8.self).dropFirst().dropLast().description
    }
}

/// Handles the page's messages, loading state and camera permission for ``FormaWebView``.
@MainActor
public final class FormaWebViewCoordinator: NSObject, WKNavigationDelegate, WKScriptMessageHandler, WKUIDelegate {
    let origin: URL
    let configuration: () async throws -> EmbedConfiguration
    var isLoading: Binding<Bool>
    var onMessageReceived: (FormaEvent) -> Void
    let state: FormaWebViewState?

    init(
        origin: URL, configuration: @escaping () async throws -> EmbedConfiguration, isLoading: Binding<Bool>,
        onMessageReceived: @escaping (FormaEvent) -> Void, state: FormaWebViewState?
    ) {
        self.origin = origin
        self.configuration = configuration
        self.isLoading = isLoading
        self.onMessageReceived = onMessageReceived
        self.state = state
    }

    public func webView(_ webView: WKWebView, didStartProvisionalNavigation navigation: WKNavigation!) {
        isLoading.wrappedValue = true
    }

    public func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!) {
        isLoading.wrappedValue = false
        state?.currentURL = webView.url
        state?.canGoBack = webView.canGoBack
    }

    public func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
        guard message.name == "listener", let body = message.body as? String,
            let event = try? FormaEvent(message: body)
        else { return }
        if case .launched = event, let webView = message.webView {
            // The handshake: the configuration goes to the page as JSON, posted to its own window.
            Task { @MainActor in
                do {
                    _ = try await webView.evaluateJavaScript(try await self.configuration().script())
                } catch {
                    self.onMessageReceived(.error(.init(code: "configuration", message: String(describing: error))))
                }
            }
        }
        onMessageReceived(event)
    }

    /// The camera is granted to the Forma server's own pages only.
    public func webView(
        _ webView: WKWebView, requestMediaCapturePermissionFor origin: WKSecurityOrigin,
        initiatedByFrame frame: WKFrameInfo, type: WKMediaCaptureType,
        decisionHandler: @escaping (WKPermissionDecision) -> Void
    ) {
        let port = self.origin.port ?? (self.origin.scheme == "https" ? 443 : 80)
        let samePort = origin.port == port || (origin.port == 0 && [80, 443].contains(port))
        let allowed = origin.protocol == self.origin.scheme && origin.host == self.origin.host && samePort
            && type == .camera
        decisionHandler(allowed ? .grant : .deny)
    }
}

func makeFormaWebView(url: URL, coordinator: FormaWebViewCoordinator, state: FormaWebViewState?) -> WKWebView {
    let controller = WKUserContentController()
    controller.add(coordinator, name: "listener")
    let configuration = WKWebViewConfiguration()
    configuration.userContentController = controller
    #if os(iOS)
    configuration.allowsInlineMediaPlayback = true
    configuration.mediaTypesRequiringUserActionForPlayback = []
    #endif
    let webView = WKWebView(frame: .zero, configuration: configuration)
    webView.navigationDelegate = coordinator
    webView.uiDelegate = coordinator
    state?.webView = webView
    webView.load(URLRequest(url: url))
    return webView
}

#if canImport(UIKit)
/// One page of the embedded experience in a SwiftUI view.
public struct FormaWebView: UIViewRepresentable {
    let url: URL
    let configuration: () async throws -> EmbedConfiguration
    @Binding var isLoading: Bool
    let onMessageReceived: (FormaEvent) -> Void
    let state: FormaWebViewState?

    public func makeCoordinator() -> FormaWebViewCoordinator {
        FormaWebViewCoordinator(
            origin: url, configuration: configuration, isLoading: $isLoading, onMessageReceived: onMessageReceived,
            state: state)
    }

    public func makeUIView(context: Context) -> WKWebView {
        makeFormaWebView(url: url, coordinator: context.coordinator, state: state)
    }

    public func updateUIView(_ view: WKWebView, context: Context) {
        context.coordinator.isLoading = $isLoading
        context.coordinator.onMessageReceived = onMessageReceived
    }
}
#elseif canImport(AppKit)
/// One page of the embedded experience in a SwiftUI view.
public struct FormaWebView: NSViewRepresentable {
    let url: URL
    let configuration: () async throws -> EmbedConfiguration
    @Binding var isLoading: Bool
    let onMessageReceived: (FormaEvent) -> Void
    let state: FormaWebViewState?

    public func makeCoordinator() -> FormaWebViewCoordinator {
        FormaWebViewCoordinator(
            origin: url, configuration: configuration, isLoading: $isLoading, onMessageReceived: onMessageReceived,
            state: state)
    }

    public func makeNSView(context: Context) -> WKWebView {
        makeFormaWebView(url: url, coordinator: context.coordinator, state: state)
    }

    public func updateNSView(_ view: WKWebView, context: Context) {
        context.coordinator.isLoading = $isLoading
        context.coordinator.onMessageReceived = onMessageReceived
    }
}
#endif

extension FormaKit {
    @MainActor
    private func view(
        _ page: EmbedPage, planC: String? = nil, category: String? = nil, style: EmbedStyle, isLoading: Binding<Bool>,
        state: FormaWebViewState?, onMessageReceived: @escaping (FormaEvent) -> Void
    ) -> FormaWebView {
        FormaWebView(
            url: embedURL(page, style: style),
            configuration: { try await self.embedConfiguration(planC: planC, category: category) },
            isLoading: isLoading, onMessageReceived: onMessageReceived, state: state)
    }

    /// Home: plans (the `planC` category first) and workouts (the `category` first).
    @MainActor
    public func createCategoryView(
        planC: String? = nil, category: String? = nil, style: EmbedStyle = .dark, isLoading: Binding<Bool>,
        state: FormaWebViewState? = nil, onMessageReceived: @escaping (FormaEvent) -> Void
    ) -> FormaWebView {
        view(
            .home, planC: planC, category: category, style: style, isLoading: isLoading, state: state,
            onMessageReceived: onMessageReceived)
    }

    @MainActor
    public func createPlanView(
        planId: String, style: EmbedStyle = .dark, isLoading: Binding<Bool>, state: FormaWebViewState? = nil,
        onMessageReceived: @escaping (FormaEvent) -> Void
    ) -> FormaWebView {
        view(.plan(id: planId), style: style, isLoading: isLoading, state: state, onMessageReceived: onMessageReceived)
    }

    @MainActor
    public func createWorkoutView(
        workoutId: String, style: EmbedStyle = .dark, isLoading: Binding<Bool>, state: FormaWebViewState? = nil,
        onMessageReceived: @escaping (FormaEvent) -> Void
    ) -> FormaWebView {
        view(.workout(id: workoutId), style: style, isLoading: isLoading, state: state, onMessageReceived: onMessageReceived)
    }

    @MainActor
    public func createChallengeView(
        exercise: String, seconds: Int = 60, style: EmbedStyle = .dark, isLoading: Binding<Bool>,
        state: FormaWebViewState? = nil, onMessageReceived: @escaping (FormaEvent) -> Void
    ) -> FormaWebView {
        view(.challenge(exercise: exercise, seconds: seconds), style: style, isLoading: isLoading, state: state,
             onMessageReceived: onMessageReceived)
    }

    @MainActor
    public func createLeaderboardView(
        exercise: String, seconds: Int = 60, style: EmbedStyle = .dark, isLoading: Binding<Bool>,
        state: FormaWebViewState? = nil, onMessageReceived: @escaping (FormaEvent) -> Void
    ) -> FormaWebView {
        view(.leaderboard(exercise: exercise, seconds: seconds), style: style, isLoading: isLoading, state: state,
             onMessageReceived: onMessageReceived)
    }

    /// The camera component; change the exercise with ``FormaWebViewState`` and
    /// ``FormaKit/currentExerciseMessage(_:)``, or start with `exercise`.
    @MainActor
    public func createCameraView(
        exercise: String? = nil, style: EmbedStyle = .dark, isLoading: Binding<Bool>, state: FormaWebViewState? = nil,
        onMessageReceived: @escaping (FormaEvent) -> Void
    ) -> FormaWebView {
        view(.camera(exercise: exercise), style: style, isLoading: isLoading, state: state, onMessageReceived: onMessageReceived)
    }

    /// The AI trainer's chat (seed 002): profile, readiness check, the workout played inside the chat, check-in and
    /// the next session. `user` pre-fills what the host knows (nil: the trainer asks everything). Listen for
    /// ``FormaEvent/trainerScheduleNextWorkout(scheduledFor:)`` (local time, `YYYY-MM-DDTHH:MM`; hand it to
    /// ``NextWorkoutReminderScheduler``) and ``FormaEvent/workoutExitRequest``.
    @MainActor
    public func createTrainerChatView(
        user: UserDetails? = nil, style: EmbedStyle = .dark, isLoading: Binding<Bool>,
        state: FormaWebViewState? = nil, onMessageReceived: @escaping (FormaEvent) -> Void
    ) -> FormaWebView {
        view(.trainer(user: user), style: style, isLoading: isLoading, state: state, onMessageReceived: onMessageReceived)
    }
}

extension FormaWebViewState {
    /// Tells the camera component which exercise to count now.
    public func setCurrentExercise(_ exercise: String) async throws {
        _ = try await evaluate("window.postMessage(\(try FormaKit.currentExerciseMessage(exercise)), window.location.origin)")
    }
}
#endif
