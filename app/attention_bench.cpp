int main() { return 0; } // attention-bench: being written
