import Synchronization
import TestSupport
import Testing

@testable import Agent

/// `ConnectGate`: at most `limit` handshakes at once, the others in order, and no slot held for ever.
@Suite(.timeLimit(.minutes(1)))
struct ConnectGateTests {
    /// Starts a task that enters the gate for `id` and records when it got in.
    static func enter(_ gate: ConnectGate, _ id: UInt64, _ entered: Entries) -> Task<Void, Never> {
        Task {
            await gate.enter(id)
            entered.append(id)
        }
    }

    @Test
    func connectionsWithinTheLimitEnterAtOnce() async throws {
        let gate = ConnectGate(limit: 2, lease: .seconds(60))
        await gate.enter(1)
        await gate.enter(2)
        #expect(gate.inFlightCount == 2)
    }

    @Test
    func theNextWaiterEntersWhenASlotIsGivenBackInOrder() async throws {
        let gate = ConnectGate(limit: 1, lease: .seconds(60))
        let entered = Entries()
        await gate.enter(1)
        let second = Self.enter(gate, 2, entered)
        try await yieldUntil { gate.waitingCount == 1 }
        let third = Self.enter(gate, 3, entered)
        try await yieldUntil { gate.waitingCount == 2 }
        #expect(entered.ids.isEmpty)

        gate.leave(1)
        await second.value
        #expect(entered.ids == [2])
        #expect(gate.waitingCount == 1)
        gate.leave(2)
        await third.value
        #expect(entered.ids == [2, 3])
        #expect(gate.inFlightCount == 1)
    }

    @Test
    func leavingWithoutASlotChangesNothing() async throws {
        let gate = ConnectGate(limit: 1, lease: .seconds(60))
        await gate.enter(1)
        gate.leave(7)
        #expect(gate.inFlightCount == 1)
    }

    @Test
    func aWithdrawnWaiterReturnsWithoutASlot() async throws {
        let gate = ConnectGate(limit: 1, lease: .seconds(60))
        let entered = Entries()
        await gate.enter(1)
        let waiter = Self.enter(gate, 2, entered)
        try await yieldUntil { gate.waitingCount == 1 }
        gate.withdraw(2)
        await waiter.value
        #expect(gate.inFlightCount == 1)
        #expect(gate.waitingCount == 0)
    }

    @Test
    func aCancelledWaiterReturnsWithoutASlot() async throws {
        let gate = ConnectGate(limit: 1, lease: .seconds(60))
        let entered = Entries()
        await gate.enter(1)
        let waiter = Self.enter(gate, 2, entered)
        try await yieldUntil { gate.waitingCount == 1 }
        waiter.cancel()
        await waiter.value
        #expect(gate.waitingCount == 0)
        #expect(gate.inFlightCount == 1)
    }

    @Test
    func aSlotHeldLongerThanTheLeaseIsFreed() async throws {
        // The lease is long enough that the real time a loaded machine takes between these steps
        // never expires it (the waiter's own enter would then let it in at once, never waiting).
        let gate = ConnectGate(limit: 1, lease: .seconds(3600))
        let entered = Entries()
        await gate.enter(1)
        let waiter = Self.enter(gate, 2, entered)
        try await yieldUntil { gate.waitingCount == 1 }
        gate.expireLeases(now: .now.advanced(by: .seconds(3601)))
        await waiter.value
        #expect(entered.ids == [2])
        #expect(gate.inFlightCount == 1)
    }
}

/// The ids that got in, in order, from any task.
final class Entries: Sendable {
    private let storage = Mutex<[UInt64]>([])

    func append(_ id: UInt64) { storage.withLock { $0.append(id) } }

    var ids: [UInt64] { storage.withLock { $0 } }
}
