extension Agent {
    /// Closes the connection at once without DISCONNECT, as if the process had died: the broker
    /// publishes the agent's last will (the Deadvertise of its identity and IO nodes), and
    /// ``run()`` returns without deadvertising. For fault-injection tests only.
    package func closeConnectionWithoutDisconnecting() {
        client.close()
    }
}
