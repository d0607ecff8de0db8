"""Both ends of the HTP wire: the engine's command loop and (for matches) the controller."""
