"""Pure parsers: text in, typed records out, line numbers kept. Nothing here touches the network."""
