"""Discord components: persistent buttons and selects (DynamicItem) and the move picker."""
