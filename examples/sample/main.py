from app.report import main

main()
