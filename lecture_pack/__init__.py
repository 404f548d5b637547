"""The lecture, prepared: the tour's views computed ahead on the server (:mod:`.ahead`)."""
