extension Agent {
    /// Test hook: loses the connection the way a killed process does, so the broker publishes the last will.
    ///
    /// The socket is closed at once, without the Deadvertise and without DISCONNECT, exactly what
    /// the broker sees when the process dies with SIGKILL. The agent does not reconnect: ``run()``
    /// returns and every observation and pending request ends. For integration tests only.
    package func closeConnectionAbruptly() {
        client.close()
    }
}
