"""Plays a class against a running app: Streamlit's websocket protocol spoken from Python
(``st_client``), the class's plan (``class_plan``), the Locust load generator
(``load_students``) and real browsers as students (``load_classroom``)."""
