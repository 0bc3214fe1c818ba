from toreshi.cli import main

main()
