import Testing

@testable import Agent

/// `MosquittoEventLoopGroup`: how clients are spread over several network threads.
@Suite(.timeLimit(.minutes(1)))
struct MosquittoEventLoopGroupTests {
    @Test
    func nextHandsOutEachLoopInTurn() throws {
        let group = try MosquittoEventLoopGroup(count: 3)
        defer { group.shutdown() }
        let handedOut = (0..<7).map { _ in group.next() }
        #expect(group.loops.count == 3)
        for (index, loop) in handedOut.enumerated() {
            #expect(loop === group.loops[index % 3])
        }
    }

    @Test
    func eachLoopRunsItsJobsOnAThreadOfItsOwn() async throws {
        let group = try MosquittoEventLoopGroup(count: 3)
        defer { group.shutdown() }
        for loop in group.loops {
            let onItsThread = await withTaskExecutorPreference(loop) {
                (loop.isCurrentThread, group.loops.filter { $0 !== loop }.map(\.isCurrentThread))
            }
            #expect(onItsThread.0)
            #expect(onItsThread.1 == [false, false])
        }
    }

    /// The loops share the broker's listen backlog, so they share one gate, whose slots are keyed
    /// on connection ids that no two loops of the group hand out twice.
    @Test
    func theLoopsShareOneConnectGateAndItsIDs() throws {
        let group = try MosquittoEventLoopGroup(count: 2)
        defer { group.shutdown() }
        let gates = group.loops.map { ObjectIdentifier($0.connectGate) }
        #expect(Set(gates).count == 1)
        let ids = (0..<10).map { group.loops[$0 % 2].makeConnectionID() }
        #expect(Set(ids).count == 10)
        #expect(!ids.contains(0))
    }

    @Test
    func aGroupHasAtLeastOneLoop() throws {
        let group = try MosquittoEventLoopGroup(count: 0)
        defer { group.shutdown() }
        #expect(group.loops.count == 1)
        #expect(MosquittoEventLoopGroup.defaultLoopCount >= 1)
    }
}
