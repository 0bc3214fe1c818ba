"""Hardware around the rooms: buzzer buttons on a serial port."""
