# analyze --plot: the pictures of interval logs
%require command gnuplot

## analyze --plot draws the time series
$ tscaudit analyze --plot monitor_plot tests/data/monitor/step.log
> tests/data/monitor/step.log: offset stepped 1 time: by 5000 ticks (2173.9 ns) at interval 25 (383.3
> ...
2>   wrote monitor_plot/monitor_timeseries.dat, monitor_timeseries.png, monitor_timeseries.svg
$ ls monitor_plot/monitor_timeseries.dat monitor_plot/monitor_timeseries.png monitor_plot/monitor_timeseries.svg
> monitor_plot/monitor_timeseries.dat
> monitor_plot/monitor_timeseries.png
> monitor_plot/monitor_timeseries.svg


## analyze --plot names each log's pictures after it
$ tscaudit analyze --plot monitor_plots tests/data/monitor/step.log tests/data/monitor/interrupted.log
> tests/data/monitor/step.log: offset stepped 1 time: by 5000 ticks (2173.9 ns) at interval 25 (383.3
> ...
> tests/data/monitor/interrupted.log: synchronized within the band: the offset lies in [-331, 31]
> ...
2> tscaudit analyze: warning: tests/data/monitor/interrupted.log is not a complete monitor log
2>   (interrupted: interrupted by SIGINT after 12 intervals); analyzing the 12 intervals it holds
2>   wrote monitor_plots/step_monitor_timeseries.dat, step_monitor_timeseries.png,
2>     step_monitor_timeseries.svg
2>   wrote monitor_plots/interrupted_monitor_timeseries.dat, interrupted_monitor_timeseries.png,
2>     interrupted_monitor_timeseries.svg
$ ls monitor_plots/step_monitor_timeseries.dat monitor_plots/step_monitor_timeseries.png monitor_plots/interrupted_monitor_timeseries.svg
> monitor_plots/interrupted_monitor_timeseries.svg
> monitor_plots/step_monitor_timeseries.dat
> monitor_plots/step_monitor_timeseries.png
